import { ServiceError } from '../../domain/errors.js';
import type { Authed } from '../context.js';
import type { Step } from '../middleware/steps.js';
import { describeFailure } from '../dependency-errors.js';

/**
 * A hold outlives the slowest call by far. A live call's hold ends with its process's heartbeat
 * (issue 35, adapters/postgres/billing/hold-owner.ts) well before this; the expiry is the outer
 * bound for a hold whose process left no heartbeat (a previous release's) and for jobs' holds.
 */
export function holdTtlMs(legDeadlineMs: number): number {
  return Math.max(120_000, 4 * legDeadlineMs);
}

/**
 * Issue 23: before the first uncached leg is sent, a live call holds its worst-case cost against
 * the balance not already held by calls in flight; when that does not cover it, the call is a
 * free 402 and no platform is asked. Cached calls never get here (no platform work to protect),
 * so the hot path pays no round trip for it. A job's worker does not hold again: the job held
 * its cost when it was accepted.
 */
export async function holdCredits(ctx: Authed, worst: number): Promise<void> {
  if (worst === 0 || ctx.res.hold || ctx.transport === 'worker') return;
  const id = `req:${ctx.requestId}`;
  const { ledger, config } = ctx.deps;
  if (!(await ledger.reserve(ctx.principal.accountId, id, worst, holdTtlMs(config.legDeadlineMs)))) {
    throw new ServiceError('credit_balance_too_low', `This call can cost up to ${worst} credits; the balance not already held by this account's calls in flight is lower. Nothing was charged and no platform was asked.`);
  }
  ctx.res.hold = { id, credits: worst };
}

/**
 * A call accepted as a job (202) holds its largest possible cost from then until the job ends
 * (issue 23), taken in the statement that writes the job (JobStore.enqueue): a job the balance
 * not held by other calls and jobs could not pay is this free 402 at once, not a job that fails
 * later. The job's debit, or its failure, ends the hold (job-store.ts).
 */
export function jobUnaffordable(worst: number): ServiceError {
  return new ServiceError('credit_balance_too_low', `This call can cost up to ${worst} credits; the balance not already held by this account's calls and jobs in flight is lower. No job was made and nothing was charged.`);
}

/**
 * Ends the call's hold when its debit did not (it charged nothing, or failed). The debit that
 * settles a call deletes the hold in its own statement and clears `ctx.res.hold`.
 */
export const releaseHold: Step = async ({ ctx, next }) => {
  try {
    return await next();
  } finally {
    const hold = ctx.res.hold;
    if (hold) {
      ctx.res.hold = undefined;
      await ctx.deps.ledger.release(hold.id).catch((err: unknown) => ctx.deps.log.warn({ requestId: ctx.requestId, ...describeFailure(err) }, 'credit hold not released; it expires on its own'));
    }
  }
};

