import { generateOpenApiDocument } from 'trpc-to-openapi';
import { z } from 'zod';
import { ERROR_CODES, ERROR_STATUS } from '../../domain/errors.js';
import { AcceptedBody } from '../../domain/model/job.js';
import type { AppRouter } from '../../router/app-router.js';
import { addRetryControls } from './openapi-retries.js';

export type OpenApiDocument = ReturnType<typeof generateOpenApiDocument>;
type Doc = OpenApiDocument;
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const ErrorBodySchema = z.object({
  error: z.object({
    code: z.enum(ERROR_CODES as [string, ...string[]]),
    subCode: z.string().optional(),
    message: z.string(),
    param: z.string().optional(),
    requestId: z.string(),
    retryable: z.boolean(),
    docUrl: z.string(),
  }),
});

const header = (description: string, type = 'string') => ({ description, schema: { type } });
const COMMON_HEADERS = {
  'X-Request-Id': header('req_ + ULID; also in meta.requestId and error.requestId.'),
  'X-RateLimit-Limit': header('Requests per minute of the bucket.', 'integer'),
  'X-RateLimit-Remaining': header('Requests left in the bucket.', 'integer'),
  'X-RateLimit-Reset': header('Unix time (seconds) when the bucket is full again.', 'integer'),
};

/** Operations that never answer 202 (spec 4.8, 4.9). */
const SYNC_ONLY = new Set(['/account', '/jobs/{jobId}']);
const ERROR_STATUSES = [...new Set(Object.values(ERROR_STATUS))].filter((s) => s !== 405 && s !== 413 && s !== 415).sort();

/** Declared defaults of an input object's fields; the generator drops them behind preprocess steps. */
function inputDefaults(router: AppRouter): Map<string, Record<string, unknown>> {
  const out = new Map<string, Record<string, unknown>>();
  for (const proc of Object.values(router._def.procedures) as Json[]) {
    const openapi = proc._def.meta?.openapi;
    const input = proc._def.inputs?.[0];
    if (!openapi || !(input instanceof z.ZodObject)) continue;
    const defaults: Record<string, unknown> = {};
    for (const [name, field] of Object.entries(input.shape)) {
      if (field instanceof z.ZodDefault) defaults[name] = field.def.defaultValue;
    }
    out.set(`${openapi.method.toLowerCase()} ${openapi.path}`, defaults);
  }
  return out;
}

/**
 * The OpenAPI 3.1 document, post-processed (stack-notes pitfall 9): the real error body on every
 * error status, the 202 job answer on data operations, and the headers every response carries.
 */
export function buildOpenApiDocument(router: AppRouter, publicUrl: string): Doc {
  const doc = generateOpenApiDocument(router, {
    title: 'Accommodation Data Service',
    version: '1.0.0',
    baseUrl: `${publicUrl}/v1`,
    description: 'Search, availability, listing detail, price quotes, cross-OTA price comparison and reviews for Airbnb, Booking.com, Vrbo and Google Hotels under one schema. Sandbox keys (svc_test_) are free and deterministic.',
  }) as Json;
  const errorSchema = z.toJSONSchema(ErrorBodySchema);
  const acceptedSchema = z.toJSONSchema(AcceptedBody, { io: 'output' });
  doc.components = { ...doc.components, schemas: { ...doc.components?.schemas, Error: errorSchema, Accepted: acceptedSchema } };
  const defaults = inputDefaults(router);
  for (const [path, ops] of Object.entries(doc.paths as Json)) {
    for (const [method, op] of Object.entries(ops as Json) as [string, Json][]) {
      const known = defaults.get(`${method} ${path}`) ?? {};
      for (const param of (op.parameters ?? []) as Json[]) if (param.name in known) param.schema = { ...param.schema, default: known[param.name] };
      const bodyProps = op.requestBody?.content?.['application/json']?.schema?.properties as Json | undefined;
      for (const [name, schema] of Object.entries(bodyProps ?? {})) if (name in known) bodyProps![name] = { ...schema, default: known[name] };
      const responses: Json = {};
      const ok = op.responses?.['200'];
      if (ok) responses['200'] = { ...ok, headers: COMMON_HEADERS };
      if (!SYNC_ONLY.has(path)) {
        responses['202'] = {
          description: 'Accepted: a slow live scrape continues as a job; poll pollUrl (free). 0 credits.',
          headers: { ...COMMON_HEADERS, 'Retry-After': header('Seconds to wait before polling.', 'integer') },
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Accepted' } } },
        };
      }
      // Operations that read a body also answer 413 (too large) and 415 (not JSON).
      const statuses = op.requestBody ? [...ERROR_STATUSES, 413, 415] : ERROR_STATUSES;
      for (const status of statuses) {
        const codes = ERROR_CODES.filter((c) => ERROR_STATUS[c] === status).join(', ');
        responses[String(status)] = {
          description: `Error (${codes}).`,
          headers: status === 429 || status === 503 ? { ...COMMON_HEADERS, 'Retry-After': header('Seconds to wait.', 'integer') } : COMMON_HEADERS,
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
        };
      }
      op.responses = responses;
    }
  }
  addRetryControls(doc);
  return doc as Doc;
}
