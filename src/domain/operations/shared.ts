import { ServiceError } from '../errors.js';
import { isFailed, type LegOutcome, type LegRuntime } from './fan-out.js';
import type { CheapestStay, Pagination, Resolved, Warning, LegStatus } from '../model/common.js';
import type { Operation, Platform } from '../platforms.js';
import type { AdapterSet, PlatformAdapter } from '../ports/platform.js';
import type { LegError } from '../model/common.js';
import type { ReviewSummary } from '../model/review.js';
import { isInPast } from '../dates.js';
import type { CallShape } from '../billing/pricing.js';
import type { Cache } from '../ports/caching.js';
import type { KeyEnv } from '../accounts/plans.js';
import { cacheSlot, type CacheNamespace, type CacheSlot } from '../caching/cache-policy.js';
import type { PageMemo } from '../caching/page-memo.js';

/** What a domain verb needs from the world; the router builds it from Deps and the caller's key. */
export interface OperationEnv extends LegRuntime {
  adapters: AdapterSet;
  now: Date;
  cursorSecret: string;
  /** Called once input is valid and before any upstream work: may refuse the call (402, 403). */
  beforeUpstream(op: Operation, shape: CallShape): void;
  /** Leg cache; sandbox and live answers live under separate keys. */
  cache: Cache;
  keyEnv: KeyEnv;
  /** Finished pages of fully cached calls (page-memo.ts); absent: every call builds its page. */
  pages?: PageMemo;
}

export function slot(env: OperationEnv, ns: CacheNamespace, parts: unknown): CacheSlot {
  return cacheSlot(env.keyEnv, ns, parts);
}

/** One platform's line in meta.platformResults, before credits are priced. */
export interface LegReport {
  platform: Platform;
  status: LegStatus;
  count: number;
  cached: boolean;
  /** Days per listing-window (availability), for the summary schedule. */
  days?: number;
  /** Why the leg failed, when it did. */
  error?: LegError;
}

/** What every verb returns; the router prices the legs and wraps it in the envelope. */
export interface OperationResult<T> {
  operation: Operation;
  data: T;
  platforms: Platform[];
  legs: LegReport[];
  warnings: Warning[];
  pagination: Pagination | null;
  currency: string;
  /** Some work failed even though no leg line says so (a batch call on one platform). */
  partial?: boolean;
  /** What the request was understood to be about (meta.resolved, issue 16). */
  resolved?: Resolved;
  /** availability with nights: the cheapest stays (meta.cheapestStays, issue 25). */
  cheapestStays?: CheapestStay[];
  /** reviews with summary=true: the reviews' verdict (meta.reviewSummary, issue 25). */
  reviewSummary?: ReviewSummary;
  /** search: items folded into another's alsoOn (meta.deduplicated). */
  deduplicated?: number;
}

export function adapterFor(env: OperationEnv, op: Operation, platform: Platform, param = 'platform'): PlatformAdapter {
  const adapter = env.adapters.get(platform);
  if (!adapter || !adapter.operations.has(op)) {
    const supported = env.adapters.supporting(op);
    throw new ServiceError(
      'invalid_request',
      `${platform} does not serve ${op} for ${env.keyEnv} keys; ${env.keyEnv} keys get ${op} from: ${supported.join(', ') || 'no platform'}. See GET /v1/platforms.`,
      { subCode: 'platform_not_supported', param },
    );
  }
  return adapter;
}

export function assertNotInPast(date: string, param: string, now: Date): void {
  if (isInPast(date, now)) {
    throw new ServiceError('invalid_request', `${param} ${date} is in the past.`, { subCode: 'date_in_past', param });
  }
}

export function report<T>(leg: LegOutcome<T>, count = leg.count): LegReport {
  return { platform: leg.platform, status: leg.status, count, cached: leg.cached, ...(leg.error ? { error: leg.error } : {}) };
}

/**
 * Every leg failed: free (spec 4.1). When every one failed because the platforms answered in a
 * format the service cannot read, retrying cannot help: 502 upstream_format_error, not retryable.
 * Otherwise 503 upstream_unavailable, retryable.
 */
export function assertSomeLegSucceeded(legs: LegOutcome<unknown>[]): void {
  if (legs.length > 0 && legs.every((l) => isFailed(l.status))) {
    const detail = legs.map((l) => `${l.platform}: ${l.status}${l.error ? ` (${l.error})` : ''}`).join(', ');
    if (legs.every((l) => l.error === 'upstream_format_changed')) {
      throw new ServiceError('upstream_format_error', `The platforms answered in a format the service cannot read (${detail}); this was reported. Retrying will not help until the service is updated. Nothing was charged.`);
    }
    throw new ServiceError('upstream_unavailable', `No platform could answer (${detail}). Nothing was charged.`, {
      retryAfterSeconds: 30,
    });
  }
}

export function listingNotFound(platform: Platform, listingId: string, param = 'listingId'): ServiceError {
  return new ServiceError('listing_not_found', `Listing "${listingId}" was not found on ${platform}.`, { param });
}

export const noResults = (what: string): Warning => ({ code: 'no_results', message: `No ${what} matched the request.` });
