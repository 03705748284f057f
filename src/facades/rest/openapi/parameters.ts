import { z } from 'zod';
import { addDays } from '../../../domain/dates.js';
import type { AnyTRPCRouter } from '@trpc/server';
import { proceduresOf } from '../../../router/trpc-internals.js';
import type { Json } from './json.js';


interface FieldFacts {
  description?: string;
  default?: unknown;
}

/** Description and default of each input field, which the generator drops behind preprocess steps. */
export function inputFacts(router: AnyTRPCRouter): Map<string, Record<string, FieldFacts>> {
  const out = new Map<string, Record<string, FieldFacts>>();
  for (const proc of proceduresOf(router).values()) {
    const openapi = proc.meta?.openapi;
    const input = proc.input;
    if (!openapi || !(input instanceof z.ZodObject)) continue;
    const facts: Record<string, FieldFacts> = {};
    for (const [name, field] of Object.entries(input.shape as Record<string, z.ZodType>)) {
      const f: FieldFacts = {};
      const description = field.description ?? (field as Json).unwrap?.()?.description;
      if (description) f.description = description;
      if (field instanceof z.ZodDefault) f.default = field.def.defaultValue;
      facts[name] = f;
    }
    out.set(`${openapi.method.toLowerCase()} ${openapi.path}`, facts);
  }
  return out;
}

/**
 * One valid request per operation, shown as parameter examples and used by "try it": the
 * reference page fills them in, so together they must make a call that answers 200 (a test sends
 * them). Dates are relative to the build day so they never fall in the past. Alternatives that
 * exclude each other (listingIds, url, googleHotelId) get no example.
 */
export function parameterExamples(today: string): Record<string, unknown> {
  return {
    location: 'Lisbon',
    radiusKm: 5,
    checkIn: addDays(today, 30),
    checkOut: addDays(today, 33),
    startDate: addDays(today, 30),
    endDate: addDays(today, 60),
    platform: 'airbnb',
    id: '52891346',
    listingId: '52891346',
    // A hotel the sandbox's Lisbon search lists: names match exactly, so an invented one is a 404.
    name: 'Lumen Hotel Belém',
    adults: 2,
    summary: true,
    currency: 'EUR',
  };
}

/**
 * A listing id may be a JSON number in a body (common-input.ts, for agents); in a URL every value
 * is text, so a query or path parameter documents the text form only.
 */
function textForm(schema: Json): Json {
  const options = schema.anyOf as Json[] | undefined;
  const text = options?.find((o) => o.type === 'string');
  if (!text || !options!.every((o) => o.type === 'string' || o.type === 'integer')) return schema;
  const { anyOf: _anyOf, ...rest } = schema;
  return { ...text, ...rest };
}

/** Parameters with their descriptions, defaults and examples restored; the request body likewise. */
export function completeParameters(op: Json, facts: Record<string, FieldFacts>, examples: Record<string, unknown>): void {
  const bodyExample: Record<string, unknown> = {};
  for (const param of (op.parameters ?? []) as Json[]) {
    const f = facts[param.name] ?? {};
    param.schema = textForm(param.schema);
    if (param.schema.type === 'array' && param.schema.items) param.schema.items = textForm(param.schema.items);
    const description = param.description ?? f.description;
    if (description) param.description = description;
    delete param.schema.description;
    delete param.schema.example;
    if (f.default !== undefined) param.schema = { ...param.schema, default: f.default };
    if (param.name in examples) param.example = examples[param.name];
    // OpenAPI's default for query parameters is form style with explode: `a=1&a=2`; we also take `a=1,2`.
    if (param.schema.type === 'array') param.description = `${param.description ?? ''} In a query: comma-separated (a,b), repeated, or name[]=.`.trim();
  }
  const body = op.requestBody?.content?.['application/json'];
  const props = body?.schema?.properties as Json | undefined;
  for (const [name, schema] of Object.entries(props ?? {})) {
    const f = facts[name] ?? {};
    props![name] = { ...schema, ...(f.description && !schema.description ? { description: f.description } : {}), ...(f.default !== undefined ? { default: f.default } : {}) };
    delete props![name].example;
    if (name in examples) bodyExample[name] = examples[name];
  }
  if (body && Object.keys(bodyExample).length) body.example = bodyExample;
}
