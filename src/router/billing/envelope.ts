import { isFailed } from '../../domain/operations/fan-out.js';
import type { Meta, PlatformResult, Warning } from '../../domain/model/common.js';
import type { OperationEnv, OperationResult } from '../../domain/operations/shared.js';
import { legCredits } from '../../domain/billing/pricing.js';
import type { Authed, Context } from '../context.js';
import { assertCanPay } from './credits.js';
import { postCharge } from './charge.js';
import { holdCredits } from './credit-hold.js';
import { dryRunHooks } from './dry-run.js';
import { trustValidatedPage } from '../page-output.js';


/** The environment a domain verb runs in: the adapters of the caller's key kind. */
export function operationEnv(ctx: Authed): OperationEnv {
  const { deps } = ctx;
  let worst = 0;
  return {
    adapters: deps.platforms[ctx.principal.env],
    now: deps.clock.now(),
    cursorSecret: deps.config.cursorSecret,
    legDeadlineMs: deps.config.legDeadlineMs,
    // Methods, not arrow-valued properties, on this per-call path: under tsx (npm start) every
    // arrow given a name is also renamed at run time, each call (README, "Performance").
    beforeUpstream(op, shape) {
      worst = ctx.res.worstCredits = assertCanPay(ctx, op, shape);
    },
    beforeFetch() {
      return holdCredits(ctx, worst);
    },
    // dryRun=true (issue 16): the same verb, stopped with its estimate where the legs would start.
    ...(ctx.dryRun ? dryRunHooks(ctx) : {}),
    cache: deps.cache,
    parsed: deps.parsedMemo,
    pages: deps.pageMemo,
    keyEnv: ctx.principal.env,
    // The worker runs calls that were already accepted as jobs: they never go async again.
    asyncThresholdMs: ctx.transport === 'worker' ? undefined : deps.config.asyncThresholdMs,
    ...(ctx.alwaysAsync && ctx.transport !== 'worker' ? { alwaysAsync: true } : {}),
    expectedMs: deps.latency.expectedMs,
    // Live platforms only: sandbox failures are deliberate and must stay reproducible. The wait for
    // a connection slot sits outside the breaker: a leg that was never sent is no platform fault.
    guard:
      ctx.principal.env === 'live'
        ? (platform, leg, signal) => deps.upstreamShares.run(platform, ctx.principal.accountId, signal, () => deps.breakers.run(platform, ctx.principal.accountId, leg))
        : undefined,
    // Drift on a live platform's side: visible at once, with the parser's reason, never to the
    // client. The sandbox's format trigger is deliberate, not drift.
    observeFormatError:
      ctx.principal.env === 'live'
        ? (platform, operation, reason) => {
            deps.log.warn({ requestId: ctx.requestId, platform, operation, reason }, 'upstream answer in an unknown format');
            deps.metrics.observeFormatError(platform, operation);
          }
        : undefined,
    ...(ctx.onLeg ? { legSettled: ctx.onLeg } : {}),
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
    ...(leg.error ? { error: leg.error } : {}),
  }));
}

/**
 * A sandbox call the console counts (issue 22): one a live key would have been billed for, the
 * same legs priced with the live schedule (an ok leg with items), so a failed or empty call is not
 * counted. Counted in memory only (sandbox-calls.ts): the hot path gains no round trip.
 */
function wouldBill(ctx: Authed, result: OperationResult<unknown>): boolean {
  const { creditSchedule } = ctx.deps.config;
  return result.legs.some((leg) => legCredits(creditSchedule, 'live', result.operation, { platform: leg.platform, ok: leg.status === 'ok', count: leg.count, days: leg.days }) > 0);
}

/** The warnings about the request itself rather than its data: unknown parameters, deprecated items used. */
export function requestWarnings(ctx: Context): Warning[] {
  const warnings = ctx.deprecationWarnings ? [...ctx.deprecationWarnings] : [];
  if (ctx.unknownParams) warnings.push(unknownParameterWarning(ctx.unknownParams));
  return warnings;
}

/** spec 2.1 warnings: query parameters the operation does not read, named as sent. */
export function unknownParameterWarning(names: string[]): Warning {
  const list = names.map((n) => `"${n}"`).join(', ');
  return { code: 'unknown_parameter', message: `Ignored unknown parameter${names.length > 1 ? 's' : ''} ${list}; see /docs for the parameters of this endpoint.` };
}

/**
 * Wraps a verb's result in `{ data, meta }` (spec 2.1), first committing the charge: one guarded
 * debit plus its `req:<requestId>` ledger row, before the response leaves (design.md section 4).
 */
export async function settle<T>(ctx: Authed, result: OperationResult<T>): Promise<{ data: T; meta: Meta }> {
  const platformResults = priceLegs(ctx, result);
  const creditsCharged = platformResults.reduce((sum, r) => sum + r.creditsCharged, 0);
  const answer = {
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
      warnings: ctx.unknownParams || ctx.deprecationWarnings ? [...result.warnings, ...requestWarnings(ctx)] : result.warnings,
      ...(result.deduplicated !== undefined ? { deduplicated: result.deduplicated } : {}),
      ...(result.resolved ? { resolved: result.resolved } : {}),
      ...(result.cheapestStays ? { cheapestStays: result.cheapestStays } : {}),
      ...(result.reviewSummary ? { reviewSummary: result.reviewSummary } : {}),
    },
  };
  // Production trusts a memoized page it validated once (page-output.ts); tests check every answer.
  if (ctx.deps.config.production) trustValidatedPage(answer);
  const billed = { platforms: platformResults.map((r) => ({ platform: r.platform, credits: r.creditsCharged })), status: answer.meta.partial ? ('partial' as const) : ('complete' as const) };
  await postCharge(ctx, creditsCharged, result.operation, answer, billed);
  ctx.res.creditsCharged = creditsCharged;
  ctx.res.billed = { operation: result.operation, ...billed };
  ctx.deps.metrics.observeCredits(result.operation, creditsCharged);
  if (ctx.principal.env === 'sandbox' && wouldBill(ctx, result)) ctx.deps.sandboxCalls.record(ctx.principal.accountId, ctx.deps.clock.now());
  return answer;
}
