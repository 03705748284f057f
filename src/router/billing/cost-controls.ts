import { DryRunStop } from '../../domain/billing/estimate.js';
import type { Platform } from '../../domain/platforms.js';
import type { Step } from '../middleware/steps.js';

/**
 * Issue 16: a billed operation's `maxCredits` and `dryRun` travel on the context to the check
 * that runs before any upstream work (credits.ts, dry-run.ts), so every operation honours them
 * without its verb knowing. Sits right after `.input()` (only validated values are read) and
 * outside the async and output steps: a dry run's answer is the estimate, not the envelope. A
 * job re-runs the procedure with the same input, so the worker applies the same cap.
 */
export const costControls: Step = async ({ ctx, input, next }) => {
  const { maxCredits, dryRun } = (input ?? {}) as { maxCredits?: number; dryRun?: boolean };
  // No new context when neither is asked: tRPC copies the whole context for every `ctx` given.
  const result = maxCredits === undefined && !dryRun ? await next() : await next({ ...(maxCredits !== undefined ? { maxCredits } : {}), ...(dryRun ? { dryRun: true } : {}) });
  if (result.ok || !(result.error.cause instanceof DryRunStop)) return result;
  const { estimate } = result.error.cause;
  const meta = { requestId: ctx.requestId, creditsCharged: 0, platforms: estimate.platforms.map((p) => p.platform) as Platform[] };
  const answer = ctx.transport === 'trpc' ? { kind: 'estimate', data: estimate, meta } : { data: estimate, meta };
  // Keep the middleware result's internal marker; only its outcome changes (as async-jobs.ts does).
  return { ...result, ok: true, data: answer } as unknown as typeof result;
};
