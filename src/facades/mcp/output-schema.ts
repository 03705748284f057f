import { z } from 'zod';
import { shareRepeatedSchemas, type JsonSchema } from './shared-definitions.js';
import { withoutRestatedKeywords } from './restated-keywords.js';
import { DATA_KEYWORDS, SCHEMA_MAPS } from './schema-keywords.js';
import { standardKeywords } from './tools.js';

/**
 * A tool's output schema as `tools/list` hands it out (issue 34 item 4: the list was 219 kB, 193 kB
 * of it output schemas, about 54,000 tokens for a client that gives them to its model and up to
 * a second of schema compiling per `listTools()` in an SDK 1.x client). It states the shapes,
 * every field, type, enum and nullability of every answer, and validates every answer as before;
 * what it leaves out costs bytes without checking anything:
 * - descriptions: what each field means is in the OpenAPI document (`GET /v1/openapi.json`,
 *   whose response schema the root description names) and on /docs; the tool's description and
 *   its input schema keep theirs, which is what a model needs to call it;
 * - repetition: a shape used more than once is one entry of the document's own `$defs`
 *   (shared-definitions.ts).
 * Nullable fields are `anyOf` branches of one type each, not a `type` array: clients that map
 * tool schemas onto a one-type dialect (Gemini's function declarations, an OpenAPI 3.0 subset)
 * reject or drop an array-valued `type`, and the Inspector's `--strict` warns about each one.
 */
export function outputJsonSchema(output: z.ZodObject): JsonSchema {
  const description = output.description;
  const schema = z.toJSONSchema(z.object(output.shape), { io: 'output', unrepresentable: 'any' }) as JsonSchema;
  delete schema.$schema;
  const shapes = portable(withoutRestatedKeywords(withoutDescriptions(standardKeywords(schema)), 'output'));
  const { $defs, ...rest } = shareRepeatedSchemas(shapes);
  return { ...(description ? { description } : {}), ...rest, ...($defs ? { $defs } : {}) };
}

/** Drops every `description` keyword (a field named "description" under `properties` stays). */
function withoutDescriptions<T>(node: T, names = false): T {
  if (Array.isArray(node)) return node.map((n) => withoutDescriptions(n)) as T;
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) {
    if (names) out[k] = withoutDescriptions(v);
    else if (k !== 'description') out[k] = DATA_KEYWORDS.includes(k) ? v : withoutDescriptions(v, SCHEMA_MAPS.includes(k));
  }
  return out as T;
}

/**
 * Every subschema portable and checking something: `{"type": ["string", "null"]}` becomes
 * `{"anyOf": [{"type": "string"}, {"type": "null"}]}`, each branch keeping the keywords of its
 * type; an `additionalProperties: {}` or `properties: {}` (zod's open object, the default anyway)
 * goes, as the Inspector warns about a schema that checks nothing. `additionalProperties: false`
 * goes too (116 of them, 3 kB of the 60 kB list): every field an answer has is still stated with
 * its type, and every answer still validates; a schema only no longer refuses a field it does not
 * state, which tells an agent nothing it needs.
 */
function portable<T>(node: T, names = false): T {
  if (Array.isArray(node)) return node.map((n) => portable(n)) as T;
  if (!node || typeof node !== 'object') return node;
  const schema = node as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) {
    if (names) out[k] = portable(v);
    else if ((k === 'additionalProperties' || k === 'properties') && isEmptySchema(v)) continue;
    else if (k === 'additionalProperties' && v === false) continue;
    else out[k] = DATA_KEYWORDS.includes(k) ? v : portable(v, SCHEMA_MAPS.includes(k));
  }
  return names ? (out as T) : (oneTypeEach(out) as T);
}

function oneTypeEach(schema: Record<string, unknown>): Record<string, unknown> {
  if (!Array.isArray(schema.type)) return schema;
  const { type, ...keywords } = schema as { type: string[] } & Record<string, unknown>;
  const annotations = Object.fromEntries(Object.entries(keywords).filter(([k]) => ANNOTATIONS.includes(k)));
  const assertions = Object.fromEntries(Object.entries(keywords).filter(([k]) => !ANNOTATIONS.includes(k)));
  return { ...annotations, anyOf: type.map((t) => ({ type: t, ...(t === 'null' ? {} : assertions) })) };
}

const ANNOTATIONS = ['description', 'title', 'examples', 'default', 'deprecated'];

function isEmptySchema(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0;
}
