import { z } from 'zod';
import { ServiceError } from '../../domain/errors.js';
import { JobHandle } from '../../domain/model/job.js';
import { Meta } from '../../domain/model/common.js';
import { ShapedMeta } from '../../domain/model/shaped.js';
import { isFinished, jobAnswer } from '../jobs/job-answer.js';
import { waitForJob } from '../retries/prefer-wait.js';
import { authedProcedure } from '../procedure.js';
import { JOB_ID } from '../jobs/jobs.js';

export const JobInput = z.object({ jobId: z.string().max(64).describe('The job_ id from a 202 answer.') });

const JobError = z.object({ code: z.string(), subCode: z.string().optional(), message: z.string(), param: z.string().optional(), requestId: z.string(), retryable: z.boolean(), docUrl: z.string() });

export const JobOutput = z
  .object({
    data: JobHandle.extend({
      result: z.unknown().optional().describe('When completed: exactly the data the synchronous call returns.'),
      error: JobError.optional().describe('When failed: the error the synchronous call would have answered.'),
      webhook: z
        .object({ status: z.enum(['waiting', 'pending', 'retrying', 'delivered', 'failed']), attempts: z.number().int(), lastError: z.string().nullable() })
        .optional()
        .describe('When the call gave a callbackUrl: its delivery (waiting while the job runs).'),
    }),
    // The meta of the job's work; a call made with view=compact stored its short meta (as its
    // synchronous answer would have had it).
    meta: z.union([Meta.partial().required({ requestId: true, creditsCharged: true, platforms: true }), ShapedMeta.required({ creditsCharged: true, platforms: true })]),
  })
  .meta({ id: 'JobResponse' });

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
