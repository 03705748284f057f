import { z } from 'zod';
import { JobHandle } from '../../domain/model/job.js';
import { Meta } from '../../domain/model/common.js';
import { ShapedItem, ShapedMeta, ShapedReview } from '../../domain/model/shaped.js';
import type { Operation } from '../../domain/platforms.js';
import { AvailabilityOutput } from './availability.schema.js';
import { ListingOutput } from './listing.schema.js';
import { PriceCompareOutput } from './price-compare.schema.js';
import { PriceOutput } from './price.schema.js';
import { ReviewsOutput } from './reviews.schema.js';
import { SearchOutput } from './search.schema.js';

export const JobInput = z.object({ jobId: z.string().max(64).describe('The job_ id from a 202 answer.') });

const JobError = z.object({ code: z.string(), subCode: z.string().optional(), message: z.string(), param: z.string().optional(), requestId: z.string(), retryable: z.boolean(), docUrl: z.string() });

const Webhook = z
  .object({ status: z.enum(['waiting', 'pending', 'retrying', 'delivered', 'failed']), attempts: z.number().int(), lastError: z.string().nullable() })
  .optional()
  .describe('When the call gave a callbackUrl: its delivery (waiting while the job runs).');

function jobData<O extends Operation, R extends z.ZodType>(operation: O, result: R) {
  return JobHandle.extend({
    operation: z.literal(operation).describe('The operation the job runs; it says what data.result holds.'),
    result: result.optional().describe('When completed: exactly the data the synchronous call returns (cut down when it asked for fields or view "compact").'),
    error: JobError.optional().describe('When failed: the error the synchronous call would have answered.'),
    webhook: Webhook,
  });
}

/**
 * A job as its poll answers it, one variant per operation (issue 22 item 3): `data.result` holds
 * exactly the data that operation's synchronous call answers, so a client narrows on `operation`
 * instead of casting an `unknown`.
 */
export const JobData = z.discriminatedUnion('operation', [
  jobData('search', z.union([SearchOutput.shape.data, z.array(ShapedItem)])),
  jobData('availability', AvailabilityOutput.shape.data),
  jobData('listing', z.union([ListingOutput.shape.data, ShapedItem])),
  jobData('price', PriceOutput.shape.data),
  jobData('priceCompare', PriceCompareOutput.shape.data),
  jobData('reviews', z.union([ReviewsOutput.shape.data, z.array(ShapedReview)])),
]);
export type JobData = z.infer<typeof JobData>;

export const JobOutput = z
  .object({
    data: JobData,
    // The meta of the job's work; a call made with view=compact stored its short meta (as its
    // synchronous answer would have had it).
    meta: z.union([Meta.partial().required({ requestId: true, creditsCharged: true, platforms: true }), ShapedMeta.required({ creditsCharged: true, platforms: true })]),
  })
  .meta({ id: 'JobResponse' });
export type JobOutput = z.infer<typeof JobOutput>;

// Every operation has its variant: one added to OPERATIONS without one here does not compile.
const everyOperation: [Exclude<Operation, JobData['operation']>] extends [never] ? true : never = true;
void everyOperation;
