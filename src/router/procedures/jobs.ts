import { ServiceError } from '../../domain/errors.js';
import { JobInput, JobOutput } from '../schemas/job.schema.js';
import { isFinished, jobAnswer } from '../jobs/job-answer.js';
import { waitForJob } from '../retries/prefer-wait.js';
import { authedProcedure } from '../procedure.js';
import { JOB_ID } from '../jobs/jobs.js';

/**
 * spec 4.9: polling is always free. Pending and running jobs answer with an estimate and
 * Retry-After; a completed job with the originating call's data and the meta of its work
 * (charged once, when it completed); a failed one with its error, at 0 credits. Unknown, foreign
 * (another account's, or the other key kind's) and expired ids are all 404 job_not_found.
 */
export const job = authedProcedure
  .meta({ openapi: { method: 'GET', path: '/jobs/{jobId}', tags: ['Jobs'], summary: 'Poll an async job', description: 'Status of a job from a 202 answer; the result when completed. Free.' } })
  .input(JobInput)
  .output(JobOutput)
  .query(async ({ ctx, input }) => {
    const now = ctx.deps.clock.now();
    // Anything that is not a job id is an unknown job: answered without asking the database.
    const found = JOB_ID.test(input.jobId) ? await ctx.deps.jobs.find(input.jobId, { accountId: ctx.principal.accountId, keyEnv: ctx.principal.env }, now) : null;
    if (!found) {
      throw new ServiceError('job_not_found', `No job ${input.jobId} for this key (unknown, another account's or key kind's, or expired after 24 h).`, { param: 'jobId' });
    }
    const waited = !isFinished(found) && ctx.transport === 'rest' && ctx.retry?.waitSeconds ? await waitForJob(ctx, found.id, ctx.retry.waitSeconds) : null;
    const { body, retryAfter } = jobAnswer(waited ?? found, ctx.requestId, ctx.deps.clock.now());
    if (retryAfter !== null) ctx.res.headers['Retry-After'] = String(retryAfter);
    const webhook = await ctx.deps.webhooks.viewOf(found.id);
    return webhook ? { ...body, data: { ...body.data, webhook } } : body;
  });
