import type { z } from 'zod';
import type { AsyncAnswer, ShapeableAnswer } from '../../domain/model/async-answer.js';

/**
 * The output of a billed operation. At run time it is the 200 envelope schema (REST and MCP send
 * `{ data, meta }`, the job as `data` with a 202, or the estimate of a dry run, untagged; the
 * OpenAPI document shows them as anyOf); its type is the union the tRPC face really sends, because
 * the cost, async and shaping middlewares tag the answer for tRPC callers (`kind`). In-process
 * callers of other transports (MCP tools, the job worker) read the untagged envelope.
 */
export function asyncAnswer<S extends z.ZodType>(envelope: S): z.ZodType<AsyncAnswer<z.output<S>>, z.input<S>> {
  return envelope as unknown as z.ZodType<AsyncAnswer<z.output<S>>, z.input<S>>;
}

/** The same for an operation that takes `fields` or `view`: the answer may also be `kind: 'shaped'`. */
export function shapeableAnswer<S extends z.ZodType<{ data: unknown; meta: { warnings: unknown[]; platformResults: unknown[] } }>>(envelope: S): z.ZodType<ShapeableAnswer<z.output<S>>, z.input<S>> {
  return envelope as unknown as z.ZodType<ShapeableAnswer<z.output<S>>, z.input<S>>;
}
