import type { z } from 'zod';

/**
 * Issue 16 item 3: `fields=` selects item fields by dotted path (`id,name,price.totalPrice`).
 * The paths an item has are read from its zod schema, so the list a 400 checks against is the
 * documented one and cannot drift from it.
 */
type Def = { type: string; shape?: Record<string, z.ZodType>; innerType?: z.ZodType; element?: z.ZodType; in?: z.ZodType; out?: z.ZodType; options?: z.ZodType[] };
/** zod's public `.def` of a schema, read by the fields each kind has. */
const defOf = (schema: z.ZodType) => schema.def as unknown as Def;

/** The object shape under optional, nullable, default, pipe and array wrappers; null for a leaf. */
function shapeOf(schema: z.ZodType): Record<string, z.ZodType> | null {
  const def = defOf(schema);
  if (def.type === 'object') return def.shape ?? null;
  if (def.innerType) return shapeOf(def.innerType);
  if (def.type === 'array' && def.element) return shapeOf(def.element);
  if (def.type === 'pipe' && def.out) return shapeOf(def.out);
  return null;
}

/** Every dotted path of an item schema: each field, and each field of a nested object. */
export function itemPaths(schema: z.ZodType, prefix = ''): string[] {
  const shape = shapeOf(schema);
  if (!shape) return [];
  return Object.entries(shape).flatMap(([name, child]) => [`${prefix}${name}`, ...itemPaths(child, `${prefix}${name}.`)]);
}

/** The paths of `fields` the item schema does not have, as sent. */
export function unknownPaths(known: readonly string[], fields: readonly string[]): string[] {
  const set = new Set(known);
  return fields.filter((f) => !set.has(f));
}

type Tree = { [name: string]: Tree | true };

function treeOf(fields: readonly string[]): Tree {
  const tree: Tree = {};
  for (const path of fields) {
    const parts = path.split('.');
    let node = tree;
    parts.forEach((part, i) => {
      if (node[part] === true) return;
      if (i === parts.length - 1) node[part] = true;
      else node = (node[part] ??= {}) as Tree;
    });
  }
  return tree;
}

function pick(value: unknown, tree: Tree): unknown {
  if (Array.isArray(value)) return value.map((v) => pick(v, tree));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [name, sub] of Object.entries(tree)) {
    if (!(name in value)) continue;
    const v = (value as Record<string, unknown>)[name];
    out[name] = sub === true ? v : pick(v, sub);
  }
  return out;
}

/** Keeps only the selected paths of an item (or of each item of a list); a path into an array applies to each element. */
export function project<T>(data: T, fields: readonly string[]): unknown {
  return pick(data, treeOf(fields));
}
