/**
 * The key of a tools/call's arguments in its tool's input memo (facades/input-memo.ts): their
 * JSON text, which fully determines them when they are JSON values, as arguments parsed from a
 * request body are. Null (no memo) for anything JSON would blur: -0 (written as 0), a value it
 * drops or turns into another (undefined, a function, a symbol, NaN or Infinity, an object with
 * toJSON such as a Date, a class instance), a bigint (it throws). Two calls with the same key
 * then hand the procedure equal raw inputs, whichever account sends them.
 */
export function toolInputKey(args: unknown): string | null {
  // A walk in JavaScript, then JSON.stringify without a replacer: a replacer is a call out of
  // the serializer for every value, which cost more than the rest of the key.
  return plainTree(args, 0) ? JSON.stringify(args) : null;
}

/** Arguments nest a few levels; anything deeper gets no key rather than a deep walk. */
const MAX_DEPTH = 32;

function plainTree(value: unknown, depth: number): boolean {
  if (!plainJson(value)) return false;
  if (value === null || typeof value !== 'object') return true;
  if (depth >= MAX_DEPTH) return false;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (!plainTree(value[i], depth + 1)) return false;
    return true;
  }
  for (const key in value) {
    if (Object.prototype.hasOwnProperty.call(value, key) && !plainTree((value as Record<string, unknown>)[key], depth + 1)) return false;
  }
  return true;
}

function plainJson(value: unknown): boolean {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value) && !Object.is(value, -0);
    case 'object': {
      if (value === null || Array.isArray(value)) return true;
      const proto = Object.getPrototypeOf(value) as unknown;
      return (proto === Object.prototype || proto === null) && typeof (value as { toJSON?: unknown }).toJSON !== 'function';
    }
    default:
      return false;
  }
}
