import { createTRPCClient, httpLink } from '@trpc/client';
import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import type { AppRouter } from '../../src/router/app-router.js';
import type { JobHandle } from '../../src/domain/model/job.js';
import type { Property } from '../../src/domain/model/property.js';
import type { JobHandleView } from '../../src/domain/model/async-answer.js';
import type { DashboardErrorShape, DashboardRouter } from '../../src/contract/trpc.js';
import { startTestApp, type TestApp } from '../support/app.js';

// `npm test` type-checks this file (tsc --noEmit) before vitest runs it: the expectTypeOf lines
// and the expected-error directives are the type tests; the runtime part proves the types true.
type In = inferRouterInputs<AppRouter>;
type Out = inferRouterOutputs<AppRouter>;

describe('tRPC client types', () => {
  it('type an async answer as a union discriminated by kind', () => {
    expectTypeOf<Out['search']['kind']>().toEqualTypeOf<'result' | 'accepted'>();
    expectTypeOf<Extract<Out['search'], { kind: 'result' }>['data']>().toEqualTypeOf<Property[]>();
    expectTypeOf<Extract<Out['search'], { kind: 'accepted' }>['job']>().toEqualTypeOf<JobHandle>();
    expectTypeOf<Extract<Out['price'], { kind: 'accepted' }>['meta']['creditsCharged']>().toEqualTypeOf<0>();
    const narrow = (res: Out['search']) => {
      // @ts-expect-error data is not there until kind is checked
      void res.data;
      if (res.kind === 'accepted') return res.job.pollUrl;
      return res.data[0]?.id;
    };
    void narrow;
  });

  it('publish for dashboards the same types the router has (src/contract/trpc.ts)', () => {
    expectTypeOf<JobHandleView>().toEqualTypeOf<JobHandle>();
    expectTypeOf<AppRouter['_def']['_config']['$types']['errorShape']>().toExtend<DashboardErrorShape>();
    expectTypeOf<inferRouterInputs<DashboardRouter>>().toEqualTypeOf<In>();
    expectTypeOf<inferRouterOutputs<DashboardRouter>>().toEqualTypeOf<Out>();
  });

  it('keep the input types that REST coercion must not erase', () => {
    expectTypeOf<In['search']['limit']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<In['search']['adults']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<In['search']['platforms']>().toEqualTypeOf<('airbnb' | 'booking' | 'vrbo' | 'expedia' | 'hotels' | 'google' | 'tripadvisor')[] | undefined>();
    expectTypeOf<In['availability']['onlyAvailable']>().toEqualTypeOf<boolean | undefined>();
    expectTypeOf<In['search']['location']>().toEqualTypeOf<string>();
    // Before: 14 of 18 search fields were `unknown`. Now none is.
    type UnknownFields = { [K in keyof In['search']]-?: unknown extends In['search'][K] ? K : never }[keyof In['search']];
    expectTypeOf<UnknownFields>().toEqualTypeOf<never>();
  });
});

let app: TestApp;
let key: string;
beforeAll(async () => {
  app = await startTestApp({ worker: true });
  key = (await app.newKey('sandbox')).key;
});
afterAll(() => app?.close());

describe('the tRPC client at run time', () => {
  it('gets kind "result" with data, and kind "accepted" with a job, as typed', async () => {
    const trpc = createTRPCClient<AppRouter>({ links: [httpLink({ url: `${app.baseUrl}/trpc`, headers: { Authorization: `Bearer ${key}` } })] });
    const result = await trpc.search.query({ location: 'Lisbon', limit: 3 });
    expect(result.kind).toBe('result');
    if (result.kind === 'result') expect(result.data).toHaveLength(3);
    const accepted = await trpc.search.query({ location: 'sandbox:async' });
    expect(accepted.kind).toBe('accepted');
    if (accepted.kind === 'accepted') expect(accepted.job.jobId).toMatch(/^job_/);
    expect((await trpc.account.query()).data.key.env).toBe('sandbox');
    expect((await trpc.account.query({})).data.key.env).toBe('sandbox'); // callers of the old signature keep working
    expect((await trpc.platforms.query()).data.keyKind).toBe('sandbox');

    if (false as boolean) {
      // @ts-expect-error platforms is an enum list
      await trpc.search.query({ location: 'Lisbon', platforms: ['myspace'] });
      // @ts-expect-error limit is a number
      await trpc.search.query({ location: 'Lisbon', limit: 'abc' });
      // @ts-expect-error currency is one of the supported codes
      await trpc.search.query({ location: 'Lisbon', currency: 'XXX' });
      // @ts-expect-error location is required
      await trpc.search.query({});
    }
  });
});
