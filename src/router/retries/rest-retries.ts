import type { Authed } from '../context.js';
import type { Step } from '../middleware/steps.js';
import { checkIdempotencyKey, claimIdempotencyKey, finishIdempotent, replay, requestFingerprint } from './idempotency.js';
import { syncAnswerOf, waitForJob } from './prefer-wait.js';
import { okResult } from '../trpc-internals.js';

type JobAccepted = { data: { jobId: string } };

/**
 * Safe retries and no polling for REST callers of billed operations (issue 17), between input
 * validation and the async projection:
 * 1. Idempotency-Key: a repeat replays the first answer (never billed again, no platform call).
 * 2. Prefer: wait=N: a call answered 202 waits for its job and answers 200 if it ends in time.
 * 3. callbackUrl: checked (public https address) when given; a job accepted for the call POSTs
 *    its signed result there when it ends. A call answered at once does not call back.
 * A replayed 202 honours Prefer: wait too: it waits on the same job.
 */
export const restRetries: Step = async ({ ctx, path, input, next }) => {
  const retry = ctx.transport === 'rest' ? ctx.retry : undefined;
  if (!retry) return next();
  const authed = ctx as Authed;
  const key = retry.idempotencyKey === null ? null : checkIdempotencyKey(retry.idempotencyKey);
  const callback = retry.callbackUrl === undefined ? null : await ctx.deps.callbacks.check(retry.callbackUrl);

  let result: Awaited<ReturnType<typeof next>>;
  const stored = key ? await claimIdempotencyKey(authed, key, requestFingerprint(path, authed.principal, input, callback)) : null;
  if (stored) {
    // A middleware result made without running the operation; tRPC reads only ok and data.
    result = okResult(replay(ctx, stored));
  } else {
    result = await next();
    try {
      if (result.ok && callback && ctx.res.status === 202) await ctx.deps.webhooks.register((result.data as JobAccepted).data.jobId, authed.principal.accountId, callback);
    } catch (err) {
      // Not an answer to keep: a retry with the key runs again (and finds the same in-flight job).
      await finishIdempotent(ctx, false, undefined);
      throw err;
    }
    await finishIdempotent(ctx, result.ok, result.ok ? result.data : undefined);
  }

  if (!result.ok || ctx.res.status !== 202 || !retry.waitSeconds) return result;
  const job = await waitForJob(authed, (result.data as JobAccepted).data.jobId, retry.waitSeconds);
  const answer = job ? syncAnswerOf(ctx, job) : null;
  if (!answer) return result;
  ctx.res.status = 200;
  delete ctx.res.headers['Retry-After'];
  return { ...result, data: answer } as typeof result;
};
