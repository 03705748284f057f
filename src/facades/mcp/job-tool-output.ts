import { z } from 'zod';
import { Meta } from '../../domain/model/common.js';

/**
 * get_job's output schema with its result and meta stated by reference (issue 34 item 4). A job's
 * `data.result` is exactly the `data` of its operation's tool, and its meta that tool's meta: spelt
 * out, the six operations made get_job's schema 51.5 kB, and a `$ref` cannot reach into another
 * tool's schema (clients fetch no remote schemas). So the result is an object or a list of
 * objects, and the description names the tool whose output schema states it; the rest of the job
 * (status, operation, error, webhook) stays exact.
 */
export function jobByReference(job: z.ZodObject, tools: readonly { name: string; procedure: string }[]): z.ZodObject {
  const variants = (job.shape.data as z.ZodDiscriminatedUnion<z.ZodObject[]>).options;
  const operations = variants.map((v) => [...(v.shape.operation as z.ZodLiteral<string>).values][0]!);
  const toolOf = operations.map((op) => `${op}: ${tools.find((t) => t.procedure === op)?.name ?? op}`).join(', ');
  const data = variants[0]!.extend({
    operation: z.enum(operations as [string, ...string[]]),
    result: z.union([z.array(z.object({}).loose()), z.object({}).loose()]).optional(),
  });
  const meta = Meta.pick({ requestId: true, creditsCharged: true, platforms: true }).loose();
  return z.object({ data, meta }).describe(
    `{ data, meta } of a job. When completed, data.result is exactly the data of the operation's tool (${toolOf}) and meta that tool's meta, as its output schema states them (cut down when the call asked for fields= or view=compact); what each field means: components.schemas.JobResponse of GET /v1/openapi.json.`,
  );
}
