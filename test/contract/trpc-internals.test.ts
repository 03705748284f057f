import { initTRPC, TRPCError } from '@trpc/server';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { appRouter } from '../../src/router/app-router.js';
import { failedResult, okResult, proceduresOf, restInputRules, trpcErrorAnswer, type MiddlewareResult } from '../../src/router/trpc-internals.js';

/**
 * What src/router/trpc-internals.ts relies on in tRPC and zod beyond their published API, each
 * exercised. A failure here after an upgrade of @trpc/server, trpc-to-openapi or zod means the
 * REST core, the /trpc direct path or the pipeline's steps would misbehave: fix that file first.
 */
const t = initTRPC.context<{ who: string }>().create();

describe('tRPC internals', () => {
  it('lists every procedure of the router with its type, OpenAPI meta and input schema', () => {
    const all = proceduresOf(appRouter);
    expect(all.get('search')).toMatchObject({ path: 'search', type: 'query', meta: { openapi: { method: 'GET', path: '/search' } } });
    expect(all.get('searchByBody')).toMatchObject({ type: 'query', meta: { openapi: { method: 'POST', path: '/search' } } });
    expect(all.get('console.createKey')).toMatchObject({ type: 'mutation' });
    expect(all.get('search')!.input).toBeInstanceOf(z.ZodType);
    // Nested routers are flattened to dotted paths, as the console face expects.
    expect([...all.keys()].some((k) => k.startsWith('console.'))).toBe(true);
    expect(all.get('account')!.input).toBeInstanceOf(z.ZodOptional);
  });

  it('calls a procedure directly: middlewares, input validation and handler, with the context given', async () => {
    const seen: string[] = [];
    const router = t.router({
      echo: t.procedure
        .use(({ next }) => (seen.push('middleware'), next()))
        .input(z.object({ n: z.number() }))
        .query(({ ctx, input }) => ({ who: ctx.who, n: input.n })),
    });
    const echo = proceduresOf(router).get('echo')!;
    await expect(echo.call({ who: 'a' }, { n: 1 })).resolves.toEqual({ who: 'a', n: 1 });
    expect(seen).toEqual(['middleware']);
    const refused = await echo.call({ who: 'a' }, { n: 'x' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(TRPCError);
    expect((refused as TRPCError).code).toBe('BAD_REQUEST');
    expect(Array.isArray(((refused as TRPCError).cause as { issues?: unknown }).issues)).toBe(true);
  });

  it("runs a procedure's middlewares as tRPC's own call does: the same options, context, input and results at every level", async () => {
    type Seen = { level: string; keys: string[]; ctx: unknown; input: unknown; raw: unknown; meta: unknown; path: string; type: string };
    const record = (seen: Seen[], level: string, o: { ctx: object; input: unknown; getRawInput: () => Promise<unknown>; meta?: unknown; path: string; type: string }) =>
      o.getRawInput().then((raw) => seen.push({ level, keys: Object.keys(o).sort(), ctx: { ...o.ctx }, input: o.input, raw, meta: o.meta, path: o.path, type: o.type }));
    const build = (seen: Seen[]) => {
      const tm = initTRPC.context<{ who: string }>().meta<{ tag: string }>().create();
      const procedure = tm.procedure
        .meta({ tag: 'm' })
        .use(async (o) => (await record(seen, 'entry', o), o.next({ ctx: { extra: 1 } })))
        .input(z.object({ n: z.coerce.number(), mode: z.enum(['ok', 'throw', 'fail', 'raw', 'input', 'none']).default('ok') }))
        .use(async (o) => {
          await record(seen, 'inner', o);
          if (o.input.mode === 'throw') throw new TRPCError({ code: 'CONFLICT', message: 'thrown' });
          if (o.input.mode === 'fail') return failedResult<MiddlewareResult<object>>(new Error('plain'));
          if (o.input.mode === 'none') return undefined as unknown as MiddlewareResult<object>;
          if (o.input.mode === 'raw') return o.next({ getRawInput: async () => ({ replaced: true }) });
          if (o.input.mode === 'input') return o.next({ input: { n: 9, mode: 'input' } });
          return o.next({ ctx: { more: 'x' } });
        })
        .output(z.object({ got: z.unknown() }))
        .query(async (o) => (await record(seen, 'handler', o as never), { got: o.input }));
      return tm.router({ p: procedure });
    };
    for (const input of [{ n: '2' }, { n: '3', mode: 'throw' }, { n: '4', mode: 'fail' }, { n: '5', mode: 'raw' }, { n: '7', mode: 'input' }, { n: '6', mode: 'none' }, { n: 'x' }]) {
      const ours: Seen[] = [];
      const theirs: Seen[] = [];
      const viaUs = await proceduresOf(build(ours)).get('p')!.call({ who: 'a' }, input).then((v) => ({ v }), (e: unknown) => ({ e }));
      const tRPCsOwn = build(theirs)._def.procedures.p as unknown as (o: object) => Promise<unknown>;
      const viaTrpc = await tRPCsOwn({ path: 'p', getRawInput: async () => input, ctx: { who: 'a' }, type: 'query', signal: undefined, batchIndex: 0 }).then((v) => ({ v }), (e: unknown) => ({ e }));
      expect(ours).toEqual(theirs);
      expect(ours.length).toBeGreaterThan(0);
      if ('v' in viaTrpc) expect(viaUs).toEqual(viaTrpc);
      else {
        expect('e' in viaUs && viaUs.e).toBeInstanceOf(TRPCError);
        const [a, b] = [(viaUs as { e: TRPCError }).e, viaTrpc.e as TRPCError];
        expect({ code: a.code, message: a.message, cause: a.cause?.constructor }).toEqual({ code: b.code, message: b.message, cause: b.cause?.constructor });
      }
    }
  });

  it('remembers the input validation under a given key: parsed once, frozen, refusals as tRPC makes them and never kept', async () => {
    let parses = 0;
    const seen: unknown[] = [];
    const router = t.router({
      p: t.procedure
        .input(z.object({ n: z.coerce.number().transform((n) => ((parses += 1), n)) }))
        .use(({ input, next }) => (seen.push(input), next()))
        .query(({ input }) => ({ twice: input.n * 2 })),
    });
    const p = proceduresOf(router).get('p')!;
    const kept = new Map<string, unknown>();
    const memo = { get: (k: string) => kept.get(k), set: (k: string, v: unknown) => void kept.set(k, v) };
    await expect(p.call({ who: 'a' }, { n: '2' }, { key: 'n=2', memo })).resolves.toEqual({ twice: 4 });
    await expect(p.call({ who: 'b' }, { n: '2' }, { key: 'n=2', memo })).resolves.toEqual({ twice: 4 });
    expect(parses).toBe(1);
    expect(seen[0]).toBe(seen[1]);
    expect(Object.isFrozen(seen[0])).toBe(true);
    await expect(p.call({ who: 'a' }, { n: '3' }, { key: 'n=3', memo })).resolves.toEqual({ twice: 6 });
    expect(parses).toBe(2);
    // A refusal is the input level's own (BAD_REQUEST, the schema's issues as cause), every time.
    const unremembered = (await p.call({ who: 'a' }, { n: 'x' }).catch((e: unknown) => e)) as TRPCError;
    for (let i = 0; i < 2; i++) {
      const refused = (await p.call({ who: 'a' }, { n: 'x' }, { key: 'n=x', memo }).catch((e: unknown) => e)) as TRPCError;
      expect(refused).toBeInstanceOf(TRPCError);
      expect({ code: refused.code, message: refused.message, issues: (refused.cause as { issues?: unknown }).issues }).toEqual({ code: unremembered.code, message: unremembered.message, issues: (unremembered.cause as { issues?: unknown }).issues });
    }
    expect(kept.has('n=x')).toBe(false);
  });

  it('makes middleware results that tRPC honours: a failure as if thrown, a success without running the handler', async () => {
    let ran = false;
    const base = t.procedure.input(z.object({ mode: z.enum(['fail', 'replay']) }));
    const router = t.router({
      step: base
        .use(async ({ input, next }) => {
          if (input.mode === 'fail') return failedResult<MiddlewareResult<object>>(new TRPCError({ code: 'CONFLICT', message: 'no' }));
          if (input.mode === 'replay') return okResult<MiddlewareResult<object>>({ replayed: true });
          return next();
        })
        .query(() => ((ran = true), { replayed: false })),
    });
    const step = proceduresOf(router).get('step')!;
    await expect(step.call({ who: 'a' }, { mode: 'replay' })).resolves.toEqual({ replayed: true });
    expect(ran).toBe(false);
    await expect(step.call({ who: 'a' }, { mode: 'fail' })).rejects.toMatchObject({ code: 'CONFLICT' });
  });

  it("shapes an error through the router's formatter, with the adapters' HTTP status", () => {
    const answer = trpcErrorAnswer(appRouter, { error: new TRPCError({ code: 'NOT_FOUND', message: 'gone' }), ctx: undefined, input: undefined, path: 'search', type: 'query' });
    expect(answer.status).toBe(404);
    expect(answer.body.error).toMatchObject({ code: -32004, data: { code: 'NOT_FOUND', httpStatus: 404, apiError: { error: { code: 'not_found' } } } });
  });
});

describe('zod internals (REST input rules)', () => {
  it('coerces the query strings of number, boolean and nested fields, as trpc-to-openapi does', () => {
    const schema = z.object({ n: z.number(), flag: z.boolean().optional(), list: z.array(z.number()).optional(), nested: z.object({ d: z.number().default(1) }) });
    const rules = restInputRules(schema);
    expect(rules.voidInput).toBe(false);
    expect([...rules.arrayKeys]).toEqual(['list']);
    expect(schema.safeParse({ n: '5', nested: {} }).success).toBe(false);
    rules.coerce!();
    expect(schema.parse({ n: '5', flag: 'true', list: ['1', '2'], nested: { d: '2' } })).toEqual({ n: 5, flag: true, list: [1, 2], nested: { d: 2 } });
  });

  it('sees through optional, default and pipe wrappers, and knows a void input', () => {
    const wrapped = z.object({ platforms: z.array(z.string()).optional() }).optional();
    expect([...restInputRules(wrapped).arrayKeys]).toEqual(['platforms']);
    const piped = z.preprocess((v) => v, z.object({ a: z.number() }));
    expect(restInputRules(piped).coerce).not.toBeNull();
    expect(restInputRules(z.void()).voidInput).toBe(true);
    expect(restInputRules(undefined)).toMatchObject({ voidInput: false, coerce: null });
  });

  it('reads the real search input as an object whose query fields coerce', () => {
    const rules = restInputRules(proceduresOf(appRouter).get('search')!.input);
    expect(rules.voidInput).toBe(false);
    expect(rules.coerce).not.toBeNull();
  });
});
