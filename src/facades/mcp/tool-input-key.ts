/**
 * The key of a tools/call's arguments in its tool's input memo (facades/input-memo.ts): their
 * JSON text, which fully determines them when they are JSON values, as arguments parsed from a
 * request body are. Null (no memo) for anything JSON would blur: -0 (written as 0), a value it
 * drops or turns into another (undefined, a function, a symbol, NaN or Infinity, an object with
 * toJSON such as a Date, a class instance), a bigint (it throws). Two calls with the same key
 * then hand the procedure equal raw inputs, whichever account sends them.
 */
export function toolInputKey(args: unknown): string | null {
  let plain = true;
  const text = JSON.stringify(args, function (this: Record<string, unknown>, key, value: unknown) {
    const raw = key === '' ? args : this[key];
    if (plainJson(raw)) return value;
    plain = false;
    return null; // (a bigint would throw)
  });
  return plain && text !== undefined ? text : null;
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
