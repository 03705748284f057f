import { t } from '../trpc.js';

/**
 * Issue 16: a billed operation's `maxCredits` travels on the context to the check that runs
 * before any upstream work (credits.ts), so every operation honours it without its verb knowing.
 * Sits after `.input()`: only a validated cap is read. A job re-runs the procedure with the same
 * input, so the worker applies the same cap.
 */
export const capCredits = t.middleware(({ ctx, input, next }) => {
  const cap = (input as { maxCredits?: unknown } | undefined)?.maxCredits;
  return typeof cap === 'number' ? next({ ctx: { maxCredits: cap } }) : next();
});
