import { getTRPCErrorFromUnknown, TRPCError, type AnyTRPCProcedure, type AnyTRPCRouter } from '@trpc/server';
import { getErrorShape, getHTTPStatusCode, getParseFn, isObject, type MiddlewareResult } from '@trpc/server/unstable-core-do-not-import';
import { deepFreeze } from '../domain/caching/page-memo.js';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { z } from 'zod';

/**
 * Everything the service relies on that tRPC (11.25) and zod (4.6) do not publish as API, in one
 * file: the faces call procedures directly rather than through tRPC's HTTP adapter and caller
 * proxy (the largest costs of a cached call, issue 15), the REST core coerces query strings as
 * trpc-to-openapi (3.3) does, and one middleware level runs several steps. An upgrade of either
 * library that changes any of it fails test/contract/trpc-internals.test.ts, which exercises each
 * export below; nothing else in src/ may import `@trpc/server/unstable-core-do-not-import`,
 * read `_def` of a router or procedure, or touch zod's `_zod`.
 */

export type { MiddlewareResult };
export type ProcedureType = 'query' | 'mutation' | 'subscription';

/** A procedure as the faces call it: its path, type, meta and input schema, and the call itself. */
export interface ProcedureEntry {
  path: string;
  type: ProcedureType;
  meta: OpenApiMeta | undefined;
  /** The schema of its first `.input()`, if any. */
  input: z.ZodType | undefined;
  /**
   * Runs the procedure as tRPC's createCaller does (middlewares, validation, handler), with `input`
   * as sent. With `parsed`, the input validation's result is taken from and kept in it under its key:
   * the caller promises that the key fully determines `input` (see InputMemo).
   */
  call(ctx: object, input: unknown, parsed?: ParsedInputSlot): Promise<unknown>;
}

/** Where a call's validated input is remembered: a memo and the key that fully determines the raw input. */
export interface ParsedInputSlot {
  key: string;
  memo: { get(key: string): unknown; set(key: string, value: unknown): void };
}

/** Every procedure of the router by its dotted path (`search`, `console.overview`). */
export function proceduresOf(router: AnyTRPCRouter): ReadonlyMap<string, ProcedureEntry> {
  const out = new Map<string, ProcedureEntry>();
  for (const [path, procedure] of Object.entries(router._def.procedures as Record<string, AnyTRPCProcedure>)) {
    const def = procedure._def as unknown as { type: ProcedureType; meta?: OpenApiMeta; inputs: z.ZodType[] };
    const { type } = def;
    out.set(path, {
      path,
      type,
      meta: def.meta,
      input: def.inputs[0],
      call: callerOf(procedure, path, type),
    });
  }
  return out;
}

type CallOpts = { path: string; type: ProcedureType; ctx: object; input: unknown; getRawInput: () => Promise<unknown>; signal: undefined; batchIndex: 0 };
type NextOpts = { ctx?: object; input?: unknown; getRawInput?: () => Promise<unknown> } | undefined;
type Middleware = ((opts: CallOpts & { meta: unknown; next(nextOpts?: NextOpts): Promise<MiddlewareResult<object>> }) => Promise<MiddlewareResult<object>>) & { _type?: string };
type ProcedureCall = (opts: Omit<CallOpts, 'input'>) => Promise<unknown>;

/**
 * A procedure's call. tRPC's own (createProcedureCaller's callRecursive) copies its options with a
 * transpiled object-spread helper twice per middleware level, five levels per API call: the
 * largest cost of ours left in a cached call (issue 29). This runs the same middlewares in the
 * same order with the same options, made as plain object literals; the contract test compares
 * what every middleware sees with tRPC's own call. A procedure with a caller override of its own
 * keeps tRPC's call.
 */
function callerOf(procedure: AnyTRPCProcedure, path: string, type: ProcedureType): ProcedureEntry['call'] {
  const def = procedure._def as unknown as { middlewares?: Middleware[]; meta?: unknown; experimental_caller?: boolean; inputs?: unknown[] };
  const middlewares = def.middlewares;
  if (def.experimental_caller || !Array.isArray(middlewares)) {
    return (ctx, input) => (procedure as unknown as ProcedureCall)({ path, getRawInput: async () => input, ctx, type, signal: undefined, batchIndex: 0 });
  }
  const meta = def.meta;
  // The one input validation level, when there is exactly one `.input()`: a remembered parse replaces it.
  const inputLevel = def.inputs?.length === 1 ? middlewares.findIndex((m) => m._type === 'input') : -1;
  const parse = inputLevel >= 0 ? getParseFn(def.inputs![0] as Parameters<typeof getParseFn>[0]) : null;
  // No arrow or function is given a name per call below (`next` comes from nextOf, the raw input
  // getter from rawInputOf): under tsx (npm start) each would be renamed at run time, every call.
  const callAt = async (index: number, o: CallOpts, parsed: ParsedInputSlot | undefined): Promise<MiddlewareResult<object>> => {
    const next = nextOf(callAt, index, o, parsed);
    try {
      if (parsed && index === inputLevel) return await rememberedInput(parse!, parsed, o, next);
      return await middlewares[index]!({
        path: o.path,
        type: o.type,
        ctx: o.ctx,
        input: o.input,
        getRawInput: o.getRawInput,
        signal: o.signal,
        batchIndex: o.batchIndex,
        meta,
        next,
      });
    } catch (cause) {
      return failedResult(cause);
    }
  };
  return async (ctx, input, parsed) => {
    const result = await callAt(0, { path, type, ctx, input: undefined, getRawInput: rawInputOf(input), signal: undefined, batchIndex: 0 }, parsed);
    if (!result) throw new TRPCError({ code: 'INTERNAL_SERVER_ERROR', message: 'No result from middlewares - did you forget to `return next()`?' });
    if (!result.ok) throw result.error;
    return result.data;
  };
}

type CallAt = (index: number, o: CallOpts, parsed: ParsedInputSlot | undefined) => Promise<MiddlewareResult<object>>;

/** A level's `next`: the next level, with the options tRPC's own `next` would hand it. */
function nextOf(callAt: CallAt, index: number, o: CallOpts, parsed: ParsedInputSlot | undefined): (nextOpts: NextOpts) => Promise<MiddlewareResult<object>> {
  return (nextOpts) =>
    callAt(index + 1, {
      path: o.path,
      type: o.type,
      ctx: nextOpts?.ctx ? { ...o.ctx, ...nextOpts.ctx } : o.ctx,
      input: nextOpts && 'input' in nextOpts ? nextOpts.input : o.input,
      getRawInput: nextOpts?.getRawInput ?? o.getRawInput,
      signal: o.signal,
      batchIndex: o.batchIndex,
    }, parsed);
}

function rawInputOf(input: unknown): () => Promise<unknown> {
  return async () => input;
}

/**
 * tRPC's input validation level (createInputMiddleware) with its parse remembered: the same
 * raw input, the same refusal (BAD_REQUEST with the schema's error as cause, never remembered),
 * the same merge with an input an earlier level set. The kept value is deep-frozen: every call
 * with its key shares it, and a step that changed it would throw at once rather than leak.
 */
async function rememberedInput(parse: (raw: unknown) => unknown, slot: ParsedInputSlot, o: CallOpts, next: (nextOpts: NextOpts) => Promise<MiddlewareResult<object>>): Promise<MiddlewareResult<object>> {
  const rawInput = await o.getRawInput();
  let parsedInput = slot.memo.get(slot.key);
  if (parsedInput === undefined) {
    try {
      parsedInput = await parse(rawInput);
    } catch (cause) {
      throw new TRPCError({ code: 'BAD_REQUEST', cause: cause as Error });
    }
    if (parsedInput !== undefined) slot.memo.set(slot.key, deepFreeze(parsedInput));
  }
  const combined = isObject(o.input) && isObject(parsedInput) ? { ...o.input, ...parsedInput } : parsedInput;
  return next({ input: combined });
}

/** The error as tRPC's adapters shape it (through the router's errorFormatter), and their HTTP status for it. */
export function trpcErrorAnswer(router: AnyTRPCRouter, opts: { error: TRPCError; ctx: object | undefined; input: unknown; path: string; type: ProcedureType }): { status: number; body: { error: unknown } } {
  const body = { error: getErrorShape({ config: router._def._config, ...opts }) };
  return { status: getHTTPStatusCode(body, [opts.error]), body };
}

/** A successful middleware result made without running what is inside (a replayed answer). */
export function okResult<R extends MiddlewareResult<object>>(data: unknown): R {
  return { ok: true, data, marker: 'middlewareMarker' } as unknown as R;
}

/** A failed middleware result, as tRPC makes one between middleware levels from a thrown error. */
export function failedResult<R extends MiddlewareResult<object>>(cause: unknown): R {
  return { ok: false, error: getTRPCErrorFromUnknown(cause), marker: 'middlewareMarker' } as unknown as R;
}

// ---- zod: the REST input rules of trpc-to-openapi, which read and change schema definitions ----

type Def = { type?: string; innerType?: z.ZodType; element?: z.ZodType; in?: z.ZodType; out?: z.ZodType; getter?: () => z.ZodType; coerce?: boolean };
const defOf = (s: z.ZodType | undefined): Def | undefined => (s as unknown as { _zod?: { def?: Def } } | undefined)?._zod?.def;
const kindOf = (s: z.ZodType | undefined) => defOf(s)?.type;
const shapeOf = (s: z.ZodType | undefined) => (s as unknown as { shape?: Record<string, z.ZodType> } | undefined)?.shape ?? {};

/** trpc-to-openapi's unwrapZodType(schema, true), for the kinds our inputs use. */
function unwrap(s: z.ZodType | undefined): z.ZodType | undefined {
  const def = defOf(s);
  switch (def?.type) {
    case 'nullable': case 'optional': case 'default': case 'prefault': return unwrap(def.innerType);
    case 'lazy': return unwrap(def.getter!());
    case 'pipe': return unwrap(kindOf(def.out) === 'transform' ? def.in : def.out);
    default: return s;
  }
}

/**
 * trpc-to-openapi's coerceSchema: query values are strings, so the number, boolean, bigint and
 * date fields of an object input (and of nested objects) coerce. It mutates the shared schema,
 * as the library does on every REST call.
 */
function coerce(schema: z.ZodType): void {
  for (const field of Object.values(shapeOf(schema))) {
    let u: z.ZodType | undefined = field;
    for (;;) {
      const def = defOf(u);
      if (def?.type === 'array') u = def.element;
      else if (def?.type === 'nullable' || def?.type === 'optional' || def?.type === 'default' || def?.type === 'prefault') u = def.innerType;
      else if (def?.type === 'lazy') u = def.getter!();
      else break;
    }
    const k = kindOf(u);
    if (k === 'number' || k === 'boolean' || k === 'bigint' || k === 'date') defOf(u)!.coerce = true;
    else if (k === 'object') coerce(u!);
  }
}

/** How the REST core reads an operation's input, as trpc-to-openapi's adapter does. */
export interface RestInputRules {
  /** Undefined input (a void-like schema) rather than an object built from query/body and path. */
  voidInput: boolean;
  /** Query keys read as arrays: a single value is wrapped (`?platforms=airbnb`). */
  arrayKeys: ReadonlySet<string>;
  /** Coerces the input schema's query fields; call once, before the first call. */
  coerce: (() => void) | null;
}

export function restInputRules(schema: z.ZodType | undefined): RestInputRules {
  const input = unwrap(schema);
  const arrayKeys = new Set<string>();
  if (kindOf(input) !== 'object') return { voidInput: ['void', 'undefined', 'never'].includes(kindOf(input) ?? ''), arrayKeys, coerce: null };
  for (const [key, field] of Object.entries(shapeOf(input))) {
    if (kindOf(field) === 'array' || (kindOf(field) === 'optional' && kindOf(defOf(field)!.innerType) === 'array')) arrayKeys.add(key);
  }
  return { voidInput: false, arrayKeys, coerce: () => coerce(input!) };
}
