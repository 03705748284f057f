import type { z } from 'zod';
import type { AsyncAnswer } from '../domain/model/async-answer.js';

/**
 * The output of an operation that may answer 202. At run time it is the 200 envelope schema
 * (REST and MCP send `{ data, meta }`, or the job as `data` with a 202, unchanged; the OpenAPI
 * document shows the envelope); its type is the union the tRPC face really sends, because the
 * async middleware tags the answer for tRPC callers (async-jobs.ts). In-process callers of other
 * transports (MCP tools, the job worker) read the untagged envelope through their own types.
 */
export function asyncAnswer<S extends z.ZodType>(envelope: S): z.ZodType<AsyncAnswer<z.output<S>>, z.input<S>> {
  return envelope as unknown as z.ZodType<AsyncAnswer<z.output<S>>, z.input<S>>;
}
