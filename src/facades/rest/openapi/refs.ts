import type { Json } from './json.js';

const DEFS_REF = /^#\/\$defs\//;

/**
 * A JSON Schema from `z.toJSONSchema` as a schema of the OpenAPI document: its `$defs` move to
 * `components.schemas` and every `#/$defs/X` points there. Left in place, such refs resolve
 * against the document root, where no `$defs` exist, and every validator and generator rejects
 * the document.
 */
export function hoistDefs(schema: Json, components: Json): Json {
  const { $defs, $schema: _ignored, ...rest } = schema;
  for (const [name, def] of Object.entries(($defs ?? {}) as Json)) {
    components[name] ??= rewriteRefs(def);
  }
  return rewriteRefs(rest);
}

/** Registers a schema with an id under its name (zod emits it as a ref to its own `$defs` entry). */
export function registerSchema(name: string, schema: Json, components: Json): void {
  const top = hoistDefs(schema, components);
  if (top.$ref !== `#/components/schemas/${name}`) components[name] = top;
}

function rewriteRefs<T>(node: T): T {
  if (Array.isArray(node)) return node.map(rewriteRefs) as T;
  if (!node || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node as Json)) {
    out[k] = k === '$ref' && typeof v === 'string' ? v.replace(DEFS_REF, '#/components/schemas/') : rewriteRefs(v);
  }
  return out as T;
}

/** Every `$ref` in a document, for the test that each one resolves. */
export function collectRefs(node: unknown, into: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((n) => collectRefs(n, into));
  else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node as Json)) {
      if (k === '$ref' && typeof v === 'string') into.push(v);
      else collectRefs(v, into);
    }
  }
  return into;
}
