import type { SubCode } from '../../domain/error-catalogue.js';
import { ServiceError, type ErrorCode } from '../../domain/errors.js';
import type { JobRecord } from '../../domain/ports/jobs.js';
import type { JobLegEvent } from '../../domain/ports/jobs.js';
import type { Context, Authed } from '../context.js';
import { isFinished, type JobErrorBody } from '../jobs/job-answer.js';


/**
 * `Prefer: wait=N` (RFC 7240): waits up to N seconds for the job to end, woken by the job's end
 * event (no poll loop), and says so in Preference-Applied. Returns the job as it then stands.
 * `onLeg` hears the job's platform legs as the worker finishes them, while waiting.
 */
export async function waitForJob(ctx: Authed, jobId: string, seconds: number, onLeg?: (leg: JobLegEvent) => void): Promise<JobRecord | null> {
  const { deps } = ctx;
  // Listen first, then read: a job ending between the two is seen either way. Without the event
  // connection the call answers as if no wait was asked (the job itself is safe either way).
  const listening = await deps.jobEvents.listen(jobId, onLeg).catch((err: unknown) => {
    deps.log.warn({ requestId: ctx.requestId, err: String(err) }, 'cannot wait for the job: no job event connection');
    return null;
  });
  if (!listening) return null;
  ctx.res.headers['Preference-Applied'] = `wait=${seconds}`;
  const owner = { accountId: ctx.principal.accountId, keyEnv: ctx.principal.env };
  try {
    const before = await deps.jobs.find(jobId, owner, deps.clock.now());
    if (!before || isFinished(before)) return before;
    if (!(await listening.done(seconds * 1000))) return before;
    return (await deps.jobs.find(jobId, owner, deps.clock.now())) ?? before;
  } finally {
    // However the wait ends (a database error included), the listener goes: nothing keeps a
    // finished request's progress callback alive.
    listening.cancel();
  }
}

/**
 * A job that ended while the call waited answers as the synchronous call would have: 200 with its
 * data and the meta of its work, or the error it failed with. Null while it is still running.
 */
export function syncAnswerOf(ctx: Context, job: JobRecord): { data: unknown; meta: Record<string, unknown> } | null {
  if (job.status === 'failed') {
    const e = job.error as unknown as JobErrorBody;
    throw new ServiceError(e.code as ErrorCode, e.message, { ...(e.subCode ? { subCode: e.subCode as SubCode } : {}), ...(e.param ? { param: e.param } : {}) });
  }
  if (job.status !== 'completed' || !job.result) return null;
  const { requestId: _work, ...work } = job.result.meta;
  return { data: job.result.data, meta: { ...work, requestId: ctx.requestId, creditsCharged: job.creditsCharged, platforms: job.platforms } };
}
