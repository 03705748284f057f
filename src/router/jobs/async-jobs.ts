import { AsyncRequired } from '../../domain/operations/fan-out.js';
import type { Platform } from '../../domain/platforms.js';
import { JOB_RETENTION_MS, jobDedupKey, pollAfterSeconds, pollUrl, remainingSeconds } from './jobs.js';
import type { Step } from '../middleware/steps.js';
import { jobUnaffordable } from '../billing/credit-hold.js';

/**
 * spec 4.9: a call whose uncached legs are projected past the threshold answers 202 at once,
 * free, with a job the worker runs through the same procedure. It sits after `.input()` (so the
 * job keeps the validated input) and outside `.output()` (the 202 body is not the 200 schema).
 */
export const acceptAsync: Step = async ({ ctx, path, input, next }) => {
  const result = await next();
  // The tRPC face tags its answer (async-answer.ts); REST, MCP and the worker keep the envelope.
  const tagged = ctx.transport === 'trpc';
  if (result.ok) return tagged ? ({ ...result, data: { kind: 'result', ...(result.data as object) } } as typeof result) : result;
  if (ctx.transport === 'worker' || !(result.error.cause instanceof AsyncRequired)) return result;
  const { estimatedMs, platforms } = result.error.cause;
  const principal = ctx.principal!;
  const now = ctx.deps.clock.now();
  const jobId = ctx.deps.ids.jobId();
  // The job holds its largest possible cost from now until it ends, taken in the statement that
  // writes it (issue 23): a job the balance not already held could not pay is a free 402 now.
  const worst = ctx.res.worstCredits ?? 0;
  // The same call already in flight answers its job, which holds its own credits.
  const enqueued = await ctx.deps.jobs.enqueue({
    id: jobId,
    accountId: principal.accountId,
    keyId: principal.keyId,
    keyEnv: principal.env,
    procedure: path,
    input,
    dedupKey: jobDedupKey(path, principal.env, input),
    platforms,
    estimatedSeconds: Math.max(1, Math.ceil(estimatedMs / 1000)),
    now,
    expiresAt: new Date(now.getTime() + JOB_RETENTION_MS),
    hold: worst > 0 ? { credits: worst, ttlMs: JOB_RETENTION_MS } : null,
  });
  if (enqueued === 'unaffordable') throw jobUnaffordable(worst);
  const { job } = enqueued;
  ctx.res.status = 202;
  ctx.res.headers['Retry-After'] = String(pollAfterSeconds(job, now));
  const handle = { jobId: job.id, status: job.status, pollUrl: pollUrl(job.id), estimatedSeconds: remainingSeconds(job, now) };
  const meta = { requestId: ctx.requestId, creditsCharged: 0, platforms: job.platforms as Platform[] };
  const accepted = tagged ? { kind: 'accepted', job: handle, meta } : { data: handle, meta };
  // Keep the middleware result's internal marker; only its outcome changes.
  return { ...result, ok: true, data: accepted } as unknown as typeof result;
};
