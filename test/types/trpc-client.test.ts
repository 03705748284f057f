import { createTRPCClient, httpLink } from '@trpc/client';
import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import type { AppRouter } from '../../src/router/app-router.js';
import type { JobHandle } from '../../src/domain/model/job.js';
import type { Property } from '../../src/domain/model/property.js';
import type { EstimateData, JobHandleView } from '../../src/domain/model/async-answer.js';
import type { EstimateView } from '../../src/domain/model/estimate.js';
import { ShapedAnswer, EstimateAnswer } from '../../src/facades/rest/openapi/shaped-answers.js';
import type { DashboardErrorShape, DashboardRouter } from '../../src/contract/trpc.js';
import { startTestApp, type TestApp } from '../support/app.js';

// `npm test` type-checks this file (tsc --noEmit) before vitest runs it: the expectTypeOf lines
// and the expected-error directives are the type tests; the runtime part proves the types true.
type In = inferRouterInputs<AppRouter>;
type Out = inferRouterOutputs<AppRouter>;

describe('tRPC client types', () => {
  it('type an async answer as a union discriminated by kind', () => {
    expectTypeOf<Out['search']['kind']>().toEqualTypeOf<'result' | 'accepted' | 'estimate' | 'shaped'>();
    expectTypeOf<Out['price']['kind']>().toEqualTypeOf<'result' | 'accepted' | 'estimate'>();
    expectTypeOf<Extract<Out['search'], { kind: 'result' }>['data']>().toEqualTypeOf<Property[]>();
    expectTypeOf<Extract<Out['search'], { kind: 'accepted' }>['job']>().toEqualTypeOf<JobHandle>();
    expectTypeOf<Extract<Out['price'], { kind: 'accepted' }>['meta']['creditsCharged']>().toEqualTypeOf<0>();
    const narrow = (res: Out['search']) => {
      // @ts-expect-error data is not there until kind is checked
      void res.data;
      if (res.kind === 'accepted') return res.job.pollUrl;
      if (res.kind === 'estimate') return res.data.worstCaseCredits;
      // A shaped item holds only what was asked for: every field may be missing.
      // @ts-expect-error name may be absent from a shaped item
      if (res.kind === 'shaped') return res.data[0]?.name.length;
      return res.data[0]?.id;
    };
    void narrow;
  });

  it('type the estimate of dryRun and the shaped answer of fields and view', () => {
    expectTypeOf<EstimateData>().toEqualTypeOf<EstimateView>();
    expectTypeOf<Extract<Out['availability'], { kind: 'estimate' }>['data']>().toEqualTypeOf<EstimateView>();
    type ShapedSearch = Extract<Out['search'], { kind: 'shaped' }>;
    expectTypeOf<ShapedSearch['data'][number]['name']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<NonNullable<ShapedSearch['data'][number]['price']>['totalPrice']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<ShapedSearch['meta']['nextCursor']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<Extract<Out['listing'], { kind: 'shaped' }>['data']['image']>().toEqualTypeOf<string | undefined>();
    // Operations without fields= have no shaped answer.
    expectTypeOf<Extract<Out['price'], { kind: 'shaped' }>>().toEqualTypeOf<never>();
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
    expectTypeOf<In['search']['location']>().toEqualTypeOf<string | undefined>(); // optional since bbox (issue 25): one of the two is a runtime rule
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
    // Each kind the types promise is what the face sends, and its body is what the schema says.
    const estimate = await trpc.search.query({ location: 'Lisbon', limit: 3, dryRun: true });
    expect(estimate.kind).toBe('estimate');
    if (estimate.kind === 'estimate') expect(EstimateAnswer.parse({ data: estimate.data, meta: estimate.meta }).data.worstCaseCredits).toBeGreaterThanOrEqual(0);
    const shaped = await trpc.search.query({ location: 'Lisbon', limit: 3, fields: ['id', 'price.totalPrice'] });
    expect(shaped.kind).toBe('shaped');
    if (shaped.kind === 'shaped') {
      expect(ShapedAnswer.parse({ data: shaped.data, meta: shaped.meta }).data).toHaveLength(3);
      expect(Object.keys(shaped.data[0]!)).toEqual(['id', 'price']);
    }
    const compact = await trpc.listing.query({ platform: 'airbnb', id: '40000012', view: 'compact' });
    expect(compact.kind).toBe('shaped');
    if (compact.kind === 'shaped') expect(ShapedAnswer.parse({ data: compact.data, meta: compact.meta }).meta.requestId).toMatch(/^req_/);
    expect((await trpc.price.query({ platform: 'airbnb', listingId: '40000012', checkIn: '2031-05-01', checkOut: '2031-05-04', dryRun: true })).kind).toBe('estimate');
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
    }
  });
});
