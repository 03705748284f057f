import { ServiceError } from '../../domain/errors.js';
import { requestsPerMinute } from '../../domain/accounts/plans.js';
import type { RateDecision } from '../../domain/ports/rate-limits.js';
import type { Context } from '../context.js';
import type { Principal } from '../../domain/ports/accounts.js';
import { keyBucket, mcpBucket } from '../../domain/accounts/rate-buckets.js';

/**
 * The named policies of the IETF RateLimit fields, one per kind of bucket (spec 5.6, 8.1): a
 * caller told which policy answered knows whether its key, its MCP user or its address ran dry.
 */
export type RatePolicy = 'key' | 'user' | 'address';

/** Every bucket refills over one minute (spec 8.1); the `w` of RateLimit-Policy. */
const WINDOW_SECONDS = 60;

/**
 * X-RateLimit-* (spec 8.1) plus the current IETF draft's structured fields
 * (draft-ietf-httpapi-ratelimit-headers): `RateLimit-Policy: "key";q=30;w=60` and
 * `RateLimit: "key";r=29;t=2`, both from the same decision, so the two syntaxes never disagree.
 */
export function rateLimitHeaders(d: RateDecision, nowMs: number, policy: RatePolicy): Record<string, string> {
  const resetSeconds = Math.max(0, Math.ceil((d.resetAtMs - nowMs) / 1000));
  return {
    'X-RateLimit-Limit': String(d.limit),
    'X-RateLimit-Remaining': String(d.remaining),
    'X-RateLimit-Reset': String(Math.ceil(d.resetAtMs / 1000)),
    'RateLimit-Policy': `"${policy}";q=${d.limit};w=${WINDOW_SECONDS}`,
    RateLimit: `"${policy}";r=${d.remaining};t=${resetSeconds}`,
  };
}

/** Takes a token from `bucket`, records the headers, and throws 429 when the bucket is empty. */
export async function enforceRateLimit(ctx: Context, bucket: string, perMinute: number, policy: RatePolicy): Promise<void> {
  const decision = await ctx.deps.limiter.take(bucket, perMinute);
  Object.assign(ctx.res.headers, rateLimitHeaders(decision, ctx.deps.clock.now().getTime(), policy));
  if (!decision.allowed) {
    const retryAfterSeconds = Math.max(1, Math.ceil(decision.retryAfterMs / 1000));
    throw new ServiceError('rate_limit_exceeded', `Rate limit of ${decision.limit} requests per minute exceeded. Retry in ${retryAfterSeconds} s.`, { retryAfterSeconds });
  }
}

/**
 * Per-key buckets for REST and tRPC, per-user buckets for MCP (spec 5.6): separate namespaces,
 * decided before any credit logic, so a 429 never costs anything.
 */
export async function rateLimit(ctx: Context, p: Principal): Promise<void> {
  if (ctx.transport === 'worker') return; // the call was counted when it was accepted
  const mcp = ctx.transport === 'mcp';
  await enforceRateLimit(ctx, mcp ? mcpBucket(p.accountId) : keyBucket(p.accountId, p.keyId), requestsPerMinute(p.plan, p.env, p.rateLimitOverride), mcp ? 'user' : 'key');
}
