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

/**
 * What a tRPC caller gets from an operation that may go async: the result, or the job to poll.
 * A discriminated union, so `res.data[0]` does not compile until `res.kind === 'result'` is checked.
 */
export type AsyncAnswer<T> = ({ kind: 'result' } & T) | { kind: 'accepted'; job: JobHandleView; meta: AcceptedMeta };
