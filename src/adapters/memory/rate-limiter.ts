import type { Clock } from '../../domain/ports.js';
import type { RateDecision, RateLimiter } from '../../domain/service-ports.js';

const MINUTE_MS = 60_000;

/**
 * In-process token bucket (spec 8.1): `capacity` tokens, refilled continuously at capacity per
 * minute. The Redis limiter runs the same arithmetic in a Lua script.
 */
export function createMemoryRateLimiter(clock: Clock): RateLimiter {
  const buckets = new Map<string, { tokens: number; at: number }>();
  return {
    async take(bucket, capacity): Promise<RateDecision> {
      const now = clock.now().getTime();
      const perMs = capacity / MINUTE_MS;
      const state = buckets.get(bucket) ?? { tokens: capacity, at: now };
      const tokens = Math.min(capacity, state.tokens + Math.max(0, now - state.at) * perMs);
      const allowed = tokens >= 1;
      const left = allowed ? tokens - 1 : tokens;
      buckets.set(bucket, { tokens: left, at: now });
      if (buckets.size > 100_000) pruneFull(buckets, now, perMs, capacity);
      return {
        allowed,
        limit: capacity,
        remaining: Math.floor(left),
        resetAtMs: now + Math.ceil((capacity - left) / perMs),
        retryAfterMs: allowed ? 0 : Math.ceil((1 - left) / perMs),
      };
    },
  };
}

/** Drops buckets that have refilled completely: they are indistinguishable from new ones. */
function pruneFull(buckets: Map<string, { tokens: number; at: number }>, now: number, perMs: number, capacity: number): void {
  for (const [key, s] of buckets) if (s.tokens + (now - s.at) * perMs >= capacity) buckets.delete(key);
}
