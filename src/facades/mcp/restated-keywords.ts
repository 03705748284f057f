import { NO_CONTROL_CHARACTERS } from '../../router/schemas/query.js';
import { DATA_KEYWORDS, SCHEMA_MAPS } from './schema-keywords.js';

type Node = Record<string, unknown>;

/**
 * A tool's schema as `tools/list` hands it out, without the keywords that restate what the schema
 * or the server already says (issue 34 item 4: the list must fit 60 kB). Each one dropped leaves
 * the schema true, only less repetitive:
 * - the `pattern` zod writes beside a `date` or `date-time` format (400 bytes for date-time),
 *   which restates RFC 3339: the format says it;
 * - the safe-integer bounds zod writes on every `.int()`: every integer the service answers is one;
 * - a `minItems` or `minLength` of 0, which checks nothing;
 * - on inputs, the no-control-characters pattern of every free-text string: the server
 *   instructions state it once, and every face refuses such a string with a 400 (a tool error on
 *   MCP) naming the field, schema or not (router/control-characters.ts).
 */
export function withoutRestatedKeywords<T>(node: T, side: 'input' | 'output', names = false): T {
  if (Array.isArray(node)) return node.map((n) => withoutRestatedKeywords(n, side)) as T;
  if (!node || typeof node !== 'object') return node;
  const schema = node as Node;
  const out: Node = {};
  for (const [k, v] of Object.entries(schema)) {
    if (!names && restates(schema, k, side)) continue;
    out[k] = names || !DATA_KEYWORDS.includes(k) ? withoutRestatedKeywords(v, side, !names && SCHEMA_MAPS.includes(k)) : v;
  }
  return out as T;
}

function restates(schema: Node, keyword: string, side: 'input' | 'output'): boolean {
  const value = schema[keyword];
  if (keyword === 'pattern') return schema.format === 'date' || schema.format === 'date-time' || (side === 'input' && value === NO_CONTROL_CHARACTERS.source);
  if ((keyword === 'minItems' || keyword === 'minLength') && value === 0) return true;
  if (schema.type !== 'integer') return false;
  return (keyword === 'minimum' && value === Number.MIN_SAFE_INTEGER) || (keyword === 'maximum' && value === Number.MAX_SAFE_INTEGER);
}

