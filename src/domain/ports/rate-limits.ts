export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** When the bucket is full again (epoch ms). */
  resetAtMs: number;
  /** How long until one token is available (ms); 0 when allowed. */
  retryAfterMs: number;
}

/** A token bucket per key: `capacity` tokens, refilled evenly over a minute (spec 8.1). */
export interface RateLimiter {
  take(bucket: string, capacity: number): Promise<RateDecision>;
}
