import { z } from 'zod';
import { Platform } from './common.js';

export const JOB_STATUSES = ['pending', 'running', 'completed', 'failed'] as const;

export const JobHandle = z
  .object({
    jobId: z.string(),
    status: z.enum(JOB_STATUSES),
    pollUrl: z.string(),
    estimatedSeconds: z.number().int().optional(),
  })
  .meta({ id: 'JobHandle' });
export type JobHandle = z.infer<typeof JobHandle>;

/** The 202 body of design.md section 3. */
export const AcceptedBody = z
  .object({
    data: JobHandle,
    meta: z.object({ requestId: z.string(), creditsCharged: z.literal(0), platforms: z.array(Platform) }),
  })
  .meta({ id: 'Accepted' });
