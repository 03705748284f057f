import { generateOpenApiDocument } from 'trpc-to-openapi';
import { z } from 'zod';
import { COST_PLACEHOLDER, withCostSentence, type CreditSchedule } from '../../domain/billing/pricing.js';
import { operationOf } from '../../router/jobs/jobs.js';
import { describeMatrix, type PlatformCapability } from '../../domain/capabilities.js';
import { ERROR_CODES } from '../../domain/errors.js';
import { SUB_CODES } from '../../domain/error-catalogue.js';
import { AcceptedBody } from '../../domain/model/job.js';
import type { KeyEnv } from '../../domain/accounts/plans.js';
import type { AppRouter } from '../../router/app-router.js';
import { addRetryControls } from './retries/openapi-retries.js';
import { SERVICE_VERSION } from '../../version.js';
import { completeParameters, inputFacts, parameterExamples } from './openapi/parameters.js';
import { registerSchema } from './openapi/refs.js';
import { HEADERS, errorResponse, errorStatuses, successHeaders } from './openapi/responses.js';
import { EstimateAnswer, ShapedAnswer, withShapedAnswers } from './openapi/shaped-answers.js';
import { serviceDescription, TAGS } from './openapi/text.js';
import type { Json } from './openapi/json.js';
import { markDeprecations } from './openapi/deprecations.js';
import { DEPRECATIONS, type Deprecation } from '../../domain/lifecycle/deprecations.js';

export type OpenApiDocument = ReturnType<typeof generateOpenApiDocument>;

const ErrorBodySchema = z
  .object({
    error: z.object({
      code: z.enum(ERROR_CODES as [string, ...string[]]),
      subCode: z.enum(Object.keys(SUB_CODES) as [string, ...string[]]).optional(),
      message: z.string(),
      param: z.string().optional().describe('The parameter at fault, as the request named it.'),
      requestId: z.string(),
      retryable: z.boolean().describe('Whether the same request may succeed later.'),
      docUrl: z.string().describe("This code's (or sub-code's) entry in the error catalogue."),
    }),
  })
  .meta({ id: 'Error' });

/** Operations that never answer 202 (spec 4.8, 4.9). */
const SYNC_ONLY = new Set(['/account', '/platforms', '/jobs/{jobId}']);

export interface OpenApiOptions {
  /** The capability matrix of each key kind, published in the description. */
  capabilities?: Record<KeyEnv, PlatformCapability[]>;
  /** The day examples are relative to (YYYY-MM-DD): their dates must never be in the past. */
  today?: string;
  /** A 200 body per operation id (openapi/examples.ts). */
  responseExamples?: Record<string, unknown>;
  /** The credit schedule in force, whose prices the operation descriptions state (default reference). */
  creditSchedule?: CreditSchedule;
  /** The deprecation table in force (default: the shipped one), marked `deprecated: true`. */
  deprecations?: readonly Deprecation[];
}

/**
 * The OpenAPI 3.1 document, post-processed (stack-notes pitfall 9) into a contract client
 * generators accept: every schema in components (no `$defs` left behind), the real error body
 * with its codes on every error status, the 202 job answer, the headers every response carries,
 * one bearer scheme, and examples that make a valid request.
 */
export function buildOpenApiDocument(router: AppRouter, publicUrl: string, options: OpenApiOptions = {}): OpenApiDocument {
  const doc = generateOpenApiDocument(router, { title: 'Accommodation Data Service', version: SERVICE_VERSION, baseUrl: `${publicUrl}/v1` }) as Json;
  const schemas: Json = {};
  for (const [name, schema] of Object.entries(doc.components?.schemas ?? {})) if (!name.startsWith('error.')) schemas[name] = schema;
  registerSchema('Error', z.toJSONSchema(ErrorBodySchema, { io: 'output' }), schemas);
  registerSchema('Accepted', z.toJSONSchema(AcceptedBody, { io: 'output', unrepresentable: 'any' }), schemas);
  registerSchema('EstimateAnswer', z.toJSONSchema(EstimateAnswer, { io: 'output', unrepresentable: 'any' }), schemas);
  registerSchema('ShapedAnswer', z.toJSONSchema(ShapedAnswer, { io: 'output', unrepresentable: 'any' }), schemas);

  doc.info = {
    title: 'Accommodation Data Service',
    version: SERVICE_VERSION,
    description: serviceDescription(publicUrl, options.capabilities ? { sandbox: describeMatrix(options.capabilities.sandbox), live: describeMatrix(options.capabilities.live) } : null),
    license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
  };
  doc.servers = [{ url: `${publicUrl}/v1`, description: 'This deployment' }];
  doc.tags = TAGS;
  doc.security = [{ bearerAuth: [] }];
  doc.components = {
    schemas,
    headers: HEADERS,
    securitySchemes: {
      bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'svc_test_… (sandbox) or svc_live_… (live) API key', description: 'Send `Authorization: Bearer <key>`. Sandbox keys are free and deterministic.' },
    },
  };

  const facts = inputFacts(router);
  const examples = parameterExamples(options.today ?? new Date().toISOString().slice(0, 10));
  for (const [path, ops] of Object.entries(doc.paths as Json)) {
    for (const [method, op] of Object.entries(ops as Json) as [string, Json][]) {
      delete op.security; // the document-wide bearer requirement applies to every operation
      // Billed operations state their price for the schedule in force (CREDIT_SCHEDULE).
      if (typeof op.description === 'string' && op.description.includes(COST_PLACEHOLDER)) op.description = withCostSentence(op.description, options.creditSchedule ?? 'reference', operationOf(op.operationId));
      completeParameters(op, facts.get(`${method} ${path}`) ?? {}, examples);
      const responses: Json = {};
      const ok = op.responses?.['200'];
      responses['200'] = { ...ok, description: ok?.description ?? 'Success.', headers: successHeaders(200) };
      const example = options.responseExamples?.[op.operationId];
      if (example !== undefined && responses['200'].content?.['application/json']) responses['200'].content['application/json'].example = example;
      if (!SYNC_ONLY.has(path)) {
        // Every billed operation takes dryRun; search, listing and reviews also fields (issue 16).
        withShapedAnswers(responses['200'], /^\/(search|listing|reviews)/.test(path));
        responses['202'] = {
          description: 'Accepted: a slow live scrape continues as a job; poll `pollUrl` (free) after `Retry-After` seconds. 0 credits.',
          headers: successHeaders(202),
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Accepted' } } },
        };
      }
      for (const status of errorStatuses(!!op.requestBody)) responses[String(status)] = errorResponse(status, publicUrl);
      op.responses = responses;
    }
  }
  addRetryControls(doc);
  markDeprecations(doc, options.deprecations ?? DEPRECATIONS, publicUrl);
  return doc as OpenApiDocument;
}
