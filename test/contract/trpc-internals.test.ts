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
