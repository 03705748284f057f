import { ServiceError } from '../../domain/errors.js';
import { requestsPerMinute } from '../../domain/accounts/plans.js';
import type { RateDecision } from '../../domain/ports/rate-limits.js';
import type { Context } from '../context.js';
import type { Principal } from '../../domain/ports/accounts.js';

/** X-RateLimit-* (spec 8.1) plus the IETF RateLimit and RateLimit-Policy fields. */
export function rateLimitHeaders(d: RateDecision, nowMs: number): Record<string, string> {
  const resetSeconds = Math.max(0, Math.ceil((d.resetAtMs - nowMs) / 1000));
  return {
    'X-RateLimit-Limit': String(d.limit),
    'X-RateLimit-Remaining': String(d.remaining),
    'X-RateLimit-Reset': String(Math.ceil(d.resetAtMs / 1000)),
    'RateLimit-Policy': `${d.limit};w=60`,
    RateLimit: `limit=${d.limit}, remaining=${d.remaining}, reset=${resetSeconds}`,
  };
}

/** Takes a token from `bucket`, records the headers, and throws 429 when the bucket is empty. */
export async function enforceRateLimit(ctx: Context, bucket: string, perMinute: number): Promise<void> {
  const decision = await ctx.deps.limiter.take(bucket, perMinute);
  Object.assign(ctx.res.headers, rateLimitHeaders(decision, ctx.deps.clock.now().getTime()));
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
  const bucket = ctx.transport === 'mcp' ? `mcp:${p.accountId}` : `key:${p.keyId}`;
  await enforceRateLimit(ctx, bucket, requestsPerMinute(p.plan, p.env, p.rateLimitOverride));
}
