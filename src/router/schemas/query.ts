import { z } from 'zod';

/**
 * Field builders that accept both REST query strings and typed JSON (POST bodies, MCP, tRPC),
 * with one schema: strings are converted by a preprocess step, which trpc-to-openapi leaves alone
 * (its own coercion would turn "false" into true, stack-notes pitfall 2). Constraints stay on the
 * inner schema so the OpenAPI document and MCP JSON Schema show them.
 */
const INT = /^[+-]?\d+$/;
const NUM = /^[+-]?(\d+\.?\d*|\.\d+)$/;

export function qInt<T extends z.ZodType>(inner: T) {
  return z.preprocess((v) => (typeof v === 'string' && INT.test(v.trim()) ? Number(v) : v), inner);
}

export function qNum<T extends z.ZodType>(inner: T) {
  return z.preprocess((v) => (typeof v === 'string' && NUM.test(v.trim()) ? Number(v) : v), inner);
}

export function qBool() {
  return z.preprocess((v) => {
    if (typeof v !== 'string') return v;
    const s = v.trim().toLowerCase();
    return s === 'true' || s === '1' ? true : s === 'false' || s === '0' ? false : v;
  }, z.boolean());
}

/** An array from `a,b`, repeated keys, `name[]` keys (normalised by the REST face) or a JSON array. */
export function csv<T extends z.ZodType>(item: T, min = 0) {
  return z.preprocess((v) => {
    if (v === undefined || v === null) return v;
    const list = Array.isArray(v) ? v : [v];
    return list.flatMap((x) => (typeof x === 'string' ? x.split(',').map((s) => s.trim()).filter((s) => s.length > 0) : [x]));
  }, z.array(item).min(min));
}

/** An optional string where an empty value means "not given" (`cursor=`). */
export function optionalText(max: number) {
  return z.preprocess((v) => (v === '' ? undefined : v), z.string().max(max).optional());
}

/** A trimmed, non-empty string of bounded length, without control characters (a NUL is never a name). */
export function text(max: number) {
  return z.string().trim().min(1).max(max).regex(/^[^\u0000-\u001f\u007f]*$/, 'must not contain control characters');
}
