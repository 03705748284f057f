import type { Platform } from '../platforms.js';

/**
 * The answer types of the tRPC face, written without zod so the declarations dashboards compile
 * against need nothing but @trpc/server (test/types checks they equal the zod-derived ones).
 */
export interface JobHandleView {
  jobId: string;
  status: 'pending' | 'running' | 'completed' | 'failed';
  pollUrl: string;
  estimatedSeconds?: number | undefined;
}

/** The meta of a 202: the call was accepted as a job, free. */
export interface AcceptedMeta {
  requestId: string;
  creditsCharged: 0;
  platforms: Platform[];
}

/** What `dryRun: true` answers (the twin of the zod EstimateView): the call's cost, free. */
export interface EstimateData {
  dryRun: true;
  worstCaseCredits: number;
  likelyCredits: number;
  maxCredits: number | null;
  withinMaxCredits: boolean;
  platforms: { platform: Platform; worstCaseCredits: number; likelyCredits: number; cached: boolean; breaker: 'closed' | 'open' | 'half_open' | 'none' }[];
}

/** A value cut down by `fields` (only the dotted paths asked for) or `view: 'compact'`: any field may be missing, at any depth. */
export type Shaped<T> = T extends readonly (infer E)[] ? Shaped<E>[] : T extends object ? { [K in keyof T]?: Shaped<T[K]> } : T;

/** An item of a shaped answer; the compact view adds `image`, the first image, when fields asks for images. */
export type ShapedItem<T> = Shaped<T> & { image?: string };

/** A warning the compact view names by code only, once, with the platforms that raised it. */
export interface GroupedWarningView {
  code: string;
  platforms?: Platform[];
}

/** The meta of a shaped answer: the whole meta with `fields`; with `view: 'compact'` a short one. */
export type ShapedMeta<M extends { warnings: unknown[]; platformResults: unknown[] }> = Shaped<Omit<M, 'warnings' | 'requestId'>> & {
  requestId: string;
  warnings?: (M['warnings'][number] | GroupedWarningView)[];
  /** view=compact: meta.pagination.nextCursor, when there is a next page. */
  nextCursor?: string;
  /** view=compact: the per-leg lines of the legs that failed. */
  failedPlatforms?: M['platformResults'];
};

/**
 * What a tRPC caller gets from a billed operation: the result, the job to poll, or (dryRun) the
 * estimate. A discriminated union, so `res.data[0]` does not compile until `res.kind === 'result'`
 * is checked.
 */
export type AsyncAnswer<T> =
  | ({ kind: 'result' } & T)
  | { kind: 'accepted'; job: JobHandleView; meta: AcceptedMeta }
  | { kind: 'estimate'; data: EstimateData; meta: AcceptedMeta };

/** An operation that takes `fields` (and `view`): its answer may also be `kind: 'shaped'`. */
export type ShapeableAnswer<T extends { data: unknown; meta: { warnings: unknown[]; platformResults: unknown[] } }> =
  | AsyncAnswer<T>
  | { kind: 'shaped'; data: T['data'] extends readonly (infer E)[] ? ShapedItem<E>[] : ShapedItem<T['data']>; meta: ShapedMeta<T['meta']> };
