import { describe, expect, it } from 'vitest';
import { t } from '../../src/router/trpc.js';
import { steps, type Step } from '../../src/router/middleware/steps.js';
import type { Context } from '../../src/router/context.js';

/** Steps run as one middleware level but must behave as separate `.use()`s did (issue 15). */
describe('steps()', () => {
  const ctx = () => ({ requestId: 'req_test' }) as unknown as Context;

  it('hands what an inner step throws to the step around it as a failed result, which may answer instead', async () => {
    const seen: string[] = [];
    const outer: Step = async ({ next }) => {
      const result = await next();
      seen.push(result.ok ? 'ok' : `failed: ${result.error.message}`);
      return result.ok ? result : ({ ...result, ok: true, data: 'recovered' } as unknown as typeof result);
    };
    const inner: Step = async () => {
      throw new Error('enqueue failed');
    };
    const procedure = t.procedure.use(steps(outer, inner)).query(() => 'never');
    const caller = t.router({ procedure }).createCaller(ctx());
    await expect(caller.procedure()).resolves.toBe('recovered');
    expect(seen).toEqual(['failed: enqueue failed']);
  });

  it('gives the context a step adds to the steps inside it and to the handler; a step around it does not see it before', async () => {
    let outerSaw: unknown = 'unset';
    let innerSaw: unknown;
    const outer: Step = async ({ next }) => next();
    const adds: Step = async ({ next }) => next({ maxCredits: 7 });
    const inner: Step = async ({ ctx: c, next }) => {
      innerSaw = c.maxCredits;
      return next();
    };
    const before: Step = async ({ ctx: c, next }) => {
      outerSaw = c.maxCredits;
      return next();
    };
    const procedure = t.procedure.use(steps(before, outer, adds, inner)).query(({ ctx: c }) => (c as Context).maxCredits);
    const caller = t.router({ procedure }).createCaller(ctx());
    await expect(caller.procedure()).resolves.toBe(7);
    expect(innerSaw).toBe(7);
    expect(outerSaw).toBeUndefined();
  });

  it('fails the call when the handler throws and no step answers, with the same error', async () => {
    const pass: Step = async ({ next }) => next();
    const procedure = t.procedure.use(steps(pass, pass)).query(() => {
      throw new Error('handler failed');
    });
    const caller = t.router({ procedure }).createCaller(ctx());
    await expect(caller.procedure()).rejects.toThrow('handler failed');
  });
});
