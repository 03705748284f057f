/**
 * The tool-schema portability rules of MCP Inspector 2.12's `--strict` (its CLI's
 * core/json/schemaLint.ts), restated so a test can hold a tool list to them without Node 22:
 * - type-union: an array-valued `type` (`["string", "null"]`), which clients that map tool
 *   schemas onto a one-type dialect (Gemini's function declarations) reject or drop;
 * - untyped-schema: a subschema with no validation keyword, which accepts anything;
 * - boolean-schema: a bare `true` or `false` where a schema object is expected;
 * - remote-ref: a `$ref` outside the document, which no client fetches.
 */
export interface Finding {
  rule: 'type-union' | 'untyped-schema' | 'boolean-schema' | 'remote-ref';
  path: string;
}

const BOOLEAN_VALUED = new Set(['additionalProperties', 'unevaluatedProperties', 'additionalItems', 'unevaluatedItems']);
const VALUES = ['items', 'contains', 'not', 'propertyNames', 'if', 'then', 'else', 'additionalProperties', 'unevaluatedProperties', 'additionalItems', 'unevaluatedItems', 'contentSchema'];
const LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const MAPS = ['properties', 'patternProperties', 'dependentSchemas', 'dependencies', '$defs', 'definitions'];
const CONSTRAINING = new Set([
  'type', 'enum', 'const', 'multipleOf', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum', 'maxLength', 'minLength',
  'pattern', 'format', 'contentMediaType', 'contentEncoding', 'contentSchema', 'maxItems', 'minItems', 'uniqueItems', 'maxContains',
  'minContains', 'maxProperties', 'minProperties', 'required', 'dependentRequired', 'allOf', 'anyOf', 'oneOf', 'not', 'items',
  'prefixItems', 'contains', 'additionalItems', 'unevaluatedItems', 'properties', 'patternProperties', 'additionalProperties',
  'unevaluatedProperties', 'propertyNames', 'dependentSchemas', 'dependencies', '$ref', '$dynamicRef', '$recursiveRef',
]);

export function portabilityFindings(schema: unknown): Finding[] {
  const findings: Finding[] = [];
  const walk = (node: unknown, path: string, keyword?: string) => {
    if (typeof node === 'boolean') {
      if (!keyword || !BOOLEAN_VALUED.has(keyword)) findings.push({ rule: 'boolean-schema', path });
      return;
    }
    if (typeof node !== 'object' || node === null || Array.isArray(node)) return;
    const s = node as Record<string, unknown>;
    if (Array.isArray(s.type)) findings.push({ rule: 'type-union', path });
    if (typeof s.$ref === 'string' && s.$ref !== '' && !s.$ref.startsWith('#')) findings.push({ rule: 'remote-ref', path });
    const constrains = Object.keys(s).some((k) => CONSTRAINING.has(k)) || ('if' in s && ('then' in s || 'else' in s));
    if (!constrains && keyword !== 'not') findings.push({ rule: 'untyped-schema', path });
    for (const k of MAPS) {
      const map = s[k];
      if (map && typeof map === 'object' && !Array.isArray(map)) for (const [name, sub] of Object.entries(map)) walk(sub, `${path}.${k}.${name}`, k);
    }
    for (const k of LISTS) if (Array.isArray(s[k])) (s[k] as unknown[]).forEach((sub, i) => walk(sub, `${path}.${k}[${i}]`, k));
    for (const k of VALUES) {
      if (!(k in s)) continue;
      if (k === 'items' && Array.isArray(s.items)) (s.items as unknown[]).forEach((sub, i) => walk(sub, `${path}.items[${i}]`, k));
      else walk(s[k], `${path}.${k}`, k);
    }
  };
  walk(schema, '');
  return findings;
}
