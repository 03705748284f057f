import { z } from 'zod';
import { ServiceError } from '../../domain/errors.js';
import { JobHandle } from '../../domain/model/job.js';
import { Meta } from '../../domain/model/common.js';
import { authedProcedure } from '../procedure.js';

export const JobInput = z.object({ jobId: z.string().max(64).describe('The job_ id from a 202 answer.') });

export const JobOutput = z
  .object({
    data: JobHandle.extend({ result: z.unknown().optional(), error: z.unknown().optional() }),
    meta: Meta.partial().required({ requestId: true, creditsCharged: true, platforms: true }),
  })
  .meta({ id: 'JobResponse' });

/**
 * spec 4.9: polling is always free. Until async jobs exist no job can be found, so every id
 * answers 404 job_not_found, exactly as an unknown, foreign or expired one will.
 */
export const job = authedProcedure
  .meta({ openapi: { method: 'GET', path: '/jobs/{jobId}', tags: ['Jobs'], summary: 'Poll an async job', description: 'Status of a job from a 202 answer; the result when completed. Free.' } })
  .input(JobInput)
  .output(JobOutput)
  .query(({ input }) => {
    throw new ServiceError('job_not_found', `No job ${input.jobId} for this account (unknown, another account's, or expired after 24 h).`, { param: 'jobId' });
  });
