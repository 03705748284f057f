import type { Clock } from '../../domain/ports/system.js';
import type { RateDecision, RateLimiter } from '../../domain/ports/rate-limits.js';

const MINUTE_MS = 60_000;

/**
 * In-process token bucket (spec 8.1): `capacity` tokens, refilled continuously at capacity per
 * minute. Tokens are counted in whole units of 1/60000 of a token, so a bucket refills by exactly
 * `capacity` units per millisecond and no floating-point drift can withhold a token. The Redis
 * limiter runs the same arithmetic in a Lua script.
 */
export function createMemoryRateLimiter(clock: Clock): RateLimiter {
  const buckets = new Map<string, { units: number; at: number }>();
  return {
    async take(bucket, capacity): Promise<RateDecision> {
      const now = clock.now().getTime();
      const full = capacity * MINUTE_MS;
      const state = buckets.get(bucket) ?? { units: full, at: now };
      const refilled = Math.min(full, state.units + Math.max(0, now - state.at) * capacity);
      const allowed = refilled >= MINUTE_MS;
      const units = allowed ? refilled - MINUTE_MS : refilled;
      buckets.set(bucket, { units, at: now });
      if (buckets.size > 100_000) pruneFull(buckets, now, capacity);
      return {
        allowed,
        limit: capacity,
        remaining: Math.floor(units / MINUTE_MS),
        resetAtMs: now + Math.ceil((full - units) / capacity),
        retryAfterMs: allowed ? 0 : Math.ceil((MINUTE_MS - units) / capacity),
      };
    },
  };
}

/** Drops buckets that have refilled completely: they are indistinguishable from new ones. */
function pruneFull(buckets: Map<string, { units: number; at: number }>, now: number, capacity: number): void {
  for (const [key, s] of buckets) if (s.units + (now - s.at) * capacity >= capacity * MINUTE_MS) buckets.delete(key);
}
