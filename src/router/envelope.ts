import { ServiceError } from '../domain/errors.js';
import { isFailed } from '../domain/fan-out.js';
import type { Meta, PlatformResult } from '../domain/model/common.js';
import type { OperationEnv, OperationResult } from '../domain/operations/shared.js';
import { legCredits } from '../domain/pricing.js';
import type { Principal } from '../domain/service-ports.js';
import type { Context } from './context.js';
import { assertCanPay } from './credits.js';
import { ClientGone } from './client-gone.js';

type Authed = Context & { principal: Principal };

/** The environment a domain verb runs in: the adapters of the caller's key kind. */
export function operationEnv(ctx: Authed): OperationEnv {
  const { deps } = ctx;
  return {
    adapters: deps.platforms[ctx.principal.env],
    now: deps.clock.now(),
    cursorSecret: deps.config.cursorSecret,
    legDeadlineMs: deps.config.legDeadlineMs,
    beforeUpstream: (op, shape) => assertCanPay(ctx, op, shape),
    cache: deps.cache,
    keyEnv: ctx.principal.env,
    // The worker runs calls that were already accepted as jobs: they never go async again.
    asyncThresholdMs: ctx.transport === 'worker' ? undefined : deps.config.asyncThresholdMs,
    expectedMs: deps.latency.expectedMs,
    observeLeg(platform, operation, status, cached, ms) {
      deps.metrics.observeLeg(platform, operation, status, cached, ms);
      if (!cached) deps.latency.observe(platform, operation, status, ms);
    },
  };
}

/** Prices each leg with the pure schedule: only ok legs with items, never sandbox (design.md section 3). */
export function priceLegs(ctx: Authed, result: OperationResult<unknown>): PlatformResult[] {
  const { creditSchedule } = ctx.deps.config;
  return result.legs.map((leg) => ({
    platform: leg.platform,
    status: leg.status,
    creditsCharged: legCredits(creditSchedule, ctx.principal.env, result.operation, { platform: leg.platform, ok: leg.status === 'ok', count: leg.count, days: leg.days }),
    cached: leg.cached,
    count: leg.count,
  }));
}

/**
 * Wraps a verb's result in `{ data, meta }` (spec 2.1), first committing the charge: one guarded
 * debit plus its `req:<requestId>` ledger row, before the response leaves (design.md section 4).
 */
export async function settle<T>(ctx: Authed, result: OperationResult<T>): Promise<{ data: T; meta: Meta }> {
  const platformResults = priceLegs(ctx, result);
  const creditsCharged = platformResults.reduce((sum, r) => sum + r.creditsCharged, 0);
  // A job's charge is posted by the worker in the transaction that stores its result.
  if (creditsCharged > 0 && !ctx.jobId) {
    // Checked just before posting: a client that left is not billed. What remains is the window
    // between this check and the response reaching the socket (README, Reliability).
    if (ctx.clientGone()) throw new ClientGone();
    const posted = await ctx.deps.ledger.post({
      accountId: ctx.principal.accountId,
      entryKey: `req:${ctx.requestId}`,
      amount: -creditsCharged,
      reason: result.operation,
    });
    if (!posted) throw new ServiceError('credit_balance_too_low', `This call costs ${creditsCharged} credits; the balance is lower. Nothing was charged.`);
    // A request id is never reused; if its entry exists, this call was not paid for and gets no data.
    if (posted.duplicate) throw new Error(`ledger entry req:${ctx.requestId} was already posted`);
  }
  ctx.res.creditsCharged = creditsCharged;
  ctx.deps.metrics.observeCredits(result.operation, creditsCharged);
  return {
    data: result.data,
    meta: {
      requestId: ctx.requestId,
      platforms: result.platforms,
      cached: platformResults.length > 0 && platformResults.every((r) => r.cached),
      partial: !!result.partial || result.legs.some((l) => isFailed(l.status)),
      creditsCharged,
      currency: result.currency,
      pagination: result.pagination,
      platformResults,
      warnings: result.warnings,
    },
  };
}
