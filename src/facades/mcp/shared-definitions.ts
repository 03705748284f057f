/**
 * One definition per repeated shape in a tool's output schema (issue 34 item 4). zod states a
 * nested schema again wherever it is used (a nullable number in twenty fields, a price inside an
 * item and the same price in an offer), so a subschema seen more than once, when that saves bytes,
 * moves into the document's own `$defs` and each place refers to it. What validates is unchanged;
 * each tool's schema stays self-contained, as a `$ref` cannot reach into another tool's schema.
 */

import { SCHEMA_MAPS } from './schema-keywords.js';

export type JsonSchema = { [keyword: string]: unknown };

/** Keywords whose value is one subschema. */
const SCHEMA_VALUES = ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames', 'unevaluatedItems', 'unevaluatedProperties'];
/** Keywords whose value is a list of subschemas. */
const SCHEMA_LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];
/** The shortest reference, `{"$ref":"#/$defs/X"}`: a place never costs less. */
const MIN_REF_BYTES = 19;

/** One place a subschema sits: its parent object (or array) and the key (or index) in it. */
interface Slot {
  parent: Record<string | number, unknown>;
  key: string | number;
  node: JsonSchema;
  /** The schemas above it, to keep one round's moves from overlapping. */
  above: JsonSchema[];
  /** The nearest property name above it, which a definition is named after. */
  context: string;
  /** An entry of the root `$defs`: it is a definition already, never replaced. */
  definition: boolean;
}

/** Places with equal subschemas, and what moving them into `$defs` saves. */
interface Group {
  slots: Slot[];
  saving: number;
}

/** Returns a copy of `schema` in which every repeated subschema worth it is a `$ref` into `$defs`. */
export function shareRepeatedSchemas(schema: JsonSchema): JsonSchema {
  // Through JSON, so no two places share one object and a replacement changes one place only.
  const { $defs, ...root } = JSON.parse(JSON.stringify(schema)) as JsonSchema;
  const defs = { ...($defs as Record<string, JsonSchema> | undefined) };
  const document: JsonSchema = { ...root, $defs: defs };
  // Each round moves the groups that save most, as long as they do not overlap; a move can make
  // another worth it (two places equal once their insides are references), hence the rounds.
  for (let moved = true; moved; ) {
    moved = false;
    const texts = new Texts();
    // A place inside a moved subschema, or holding one, was measured before the move: next round.
    const movedNodes = new Set<JsonSchema>();
    const holdingMoved = new Set<JsonSchema>();
    for (const group of savingGroups(collectSlots(document, defs), texts)) {
      if (group.slots.some((s) => movedNodes.has(s.node) || holdingMoved.has(s.node) || s.above.some((a) => movedNodes.has(a)))) continue;
      for (const slot of group.slots) {
        movedNodes.add(slot.node);
        slot.above.forEach((a) => holdingMoved.add(a));
      }
      move(group, defs);
      moved = true;
    }
  }
  // $defs last: a reader meets the tool's own shape first.
  return Object.keys(defs).length ? document : root;
}

function collectSlots(document: JsonSchema, defs: Record<string, JsonSchema>): Slot[] {
  const slots: Slot[] = [];
  const visit = (node: JsonSchema, above: JsonSchema[], context: string) => {
    const under = [...above, node];
    const at = (parent: Record<string | number, unknown>, key: string | number, childContext: string, definition = false) => {
      const child = parent[key];
      if (!isSchema(child)) return;
      slots.push({ parent, key, node: child, above: under, context: childContext, definition });
      visit(child, under, childContext);
    };
    for (const keyword of SCHEMA_MAPS) {
      const map = node[keyword];
      if (!isSchema(map)) continue;
      for (const name of Object.keys(map)) at(map, name, keyword === 'properties' || map === defs ? name : context, map === defs);
    }
    for (const keyword of SCHEMA_VALUES) at(node, keyword, keyword === 'items' ? `${context}Item` : context);
    for (const keyword of SCHEMA_LISTS) {
      const list = node[keyword];
      if (Array.isArray(list)) list.forEach((_, i) => at(list as unknown as Record<number, unknown>, i, context));
    }
  };
  visit(document, [], 'Root');
  return slots;
}

/** Every group whose move saves bytes, most saving first. */
function savingGroups(slots: Slot[], texts: Texts): Group[] {
  const equal = new Map<string, Slot[]>();
  for (const slot of slots) {
    if (typeof slot.node.$ref === 'string') continue;
    const text = texts.of(slot.node);
    equal.set(text, [...(equal.get(text) ?? []), slot]);
  }
  const groups: Group[] = [];
  for (const group of equal.values()) {
    const saving = group.length > 1 ? savingOf(group, texts) : 0;
    if (saving > 0) groups.push({ slots: group, saving });
  }
  return groups.sort((a, b) => b.saving - a.saving);
}

/** Bytes now, less bytes after: the body once (unless a definition holds it) and a `$ref` per place. */
function savingOf(slots: Slot[], texts: Texts): number {
  const body = texts.of(slots[0]!.node).length;
  const definition = slots.find((s) => s.definition);
  // The reference's length, by the name it will likely have.
  const ref = MIN_REF_BYTES - 1 + String(definition?.key ?? baseName(slots[0]!)).length;
  const moved = definition ? slots.length - 1 : slots.length;
  // The body stays once (in $defs, where a definition already holds it); each other place becomes a $ref.
  return (moved - (definition ? 0 : 1)) * body - moved * ref - (definition ? 0 : ref);
}

function move(group: Group, defs: Record<string, JsonSchema>) {
  // An existing definition keeps its name and place; else the first place's subschema moves.
  const definition = group.slots.find((s) => s.definition);
  const name = definition ? String(definition.key) : freshName(baseName(group.slots[0]!), defs);
  if (!definition) defs[name] = group.slots[0]!.node;
  for (const slot of group.slots) if (slot !== definition) slot.parent[slot.key] = { $ref: `#/$defs/${name}` };
}

/**
 * Named after what it is when it is a bare type shared by unrelated fields (NumberOrNull,
 * NonNegativeInteger), else after where it is first used (`price` -> Price).
 */
function baseName(slot: Slot): string {
  return typeName(slot.node) ?? pascal(slot.context);
}

function typeName(node: JsonSchema): string | undefined {
  if (Array.isArray(node.anyOf)) {
    const names = (node.anyOf as JsonSchema[]).map((branch) => (typeof branch.$ref === 'string' ? branch.$ref.split('/').pop() : typeName(branch)));
    return names.every(Boolean) && Object.keys(node).length === 1 ? names.join('Or') : undefined;
  }
  if (typeof node.type !== 'string' || Object.keys(node).some((k) => !['type', 'format', 'minimum', 'maximum', 'pattern', 'examples'].includes(k))) return undefined;
  const nonNegative = node.type === 'integer' && node.minimum === 0 ? 'NonNegative' : '';
  return `${nonNegative}${pascal(typeof node.format === 'string' ? node.format : node.type)}`;
}

/** Numbered when the name is taken. */
function freshName(base: string, defs: Record<string, JsonSchema>): string {
  let name = base;
  for (let n = 2; name in defs; n++) name = `${base}${n}`;
  return name;
}

function pascal(text: string): string {
  return text.replace(/(^|[^A-Za-z0-9]+)([a-z])?/g, (_m, _sep, c: string | undefined) => (c ? c.toUpperCase() : '')) || 'Schema';
}

/**
 * Each value's JSON with object keys sorted, so schemas equal but for key order compare equal
 * (its length is the value's JSON length); remembered per value for one round.
 */
class Texts {
  private readonly known = new Map<object, string>();

  of(value: unknown): string {
    if (typeof value !== 'object' || value === null) return JSON.stringify(value);
    let text = this.known.get(value);
    if (text === undefined) {
      text = Array.isArray(value) ? `[${value.map((v) => this.of(v)).join(',')}]` : this.object(value as JsonSchema);
      this.known.set(value, text);
    }
    return text;
  }

  private object(node: JsonSchema): string {
    const keys = Object.keys(node).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${this.of(node[k])}`).join(',')}}`;
  }
}

function isSchema(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
