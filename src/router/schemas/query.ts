import { z } from 'zod';

/**
 * Field builders that accept both REST query strings and typed JSON (POST bodies, MCP, tRPC),
 * with one schema: strings are converted by a preprocess step, which trpc-to-openapi leaves alone
 * (its own coercion would turn "false" into true, stack-notes pitfall 2). Constraints stay on the
 * inner schema so the OpenAPI document and MCP JSON Schema show them.
 */
const INT = /^[+-]?\d+$/;
const NUM = /^[+-]?(\d+\.?\d*|\.\d+)$/;

/**
 * A preprocess step that keeps the inner schema's input type. Left untyped, zod types a
 * preprocess's input as `unknown`, and every tRPC caller could send anything (`limit: 'abc'`
 * compiled). The conversion of query-string text happens at run time only; typed callers see
 * the type they must send.
 */
export function typedPreprocess<T extends z.ZodType>(convert: (raw: unknown) => unknown, inner: T) {
  return z.preprocess<unknown, T, z.input<T>>((v) => convert(v), inner);
}

export function qInt<T extends z.ZodType>(inner: T) {
  return typedPreprocess((v) => (typeof v === 'string' && INT.test(v.trim()) ? Number(v) : v), inner);
}

export function qNum<T extends z.ZodType>(inner: T) {
  return typedPreprocess((v) => (typeof v === 'string' && NUM.test(v.trim()) ? Number(v) : v), inner);
}

export function qBool() {
  return typedPreprocess((v) => {
    if (typeof v !== 'string') return v;
    const s = v.trim().toLowerCase();
    return s === 'true' || s === '1' ? true : s === 'false' || s === '0' ? false : v;
  }, z.boolean());
}

/** An array from `a,b`, repeated keys, `name[]` keys (normalised by the REST face) or a JSON array. */
export function csv<T extends z.ZodType>(item: T, min = 0) {
  return typedPreprocess((v) => {
    if (v === undefined || v === null) return v;
    const list = Array.isArray(v) ? v : [v];
    return list.flatMap((x) => (typeof x === 'string' ? x.split(',').map((s) => s.trim()).filter((s) => s.length > 0) : [x]));
  }, z.array(item).min(min));
}

/** An optional string where an empty value means "not given" (`cursor=`). */
export function optionalText(max: number) {
  return typedPreprocess((v) => (v === '' ? undefined : v), z.string().max(max).optional());
}

/** No C0 control character nor DEL: a NUL is never a name. */
export const NO_CONTROL_CHARACTERS = /^[^\u0000-\u001f\u007f]*$/;

/** A trimmed, non-empty string of bounded length, without control characters. */
export function text(max: number) {
  return z.string().trim().min(1).max(max).regex(NO_CONTROL_CHARACTERS, 'must not contain control characters');
}
