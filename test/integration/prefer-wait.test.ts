import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { expectError } from '../support/common-rules.js';
import { fakePlatforms, type FakePlatforms } from '../support/fake-platforms.js';

/** Prefer: wait=N (RFC 7240) on calls that would answer 202 and on GET /v1/jobs/{id} (issue 17 item 2). */
let app: TestApp;
let fake: FakePlatforms;
let finds = 0;
beforeAll(async () => {
  fake = fakePlatforms();
  app = await startTestApp({ worker: true, platforms: { live: fake.adapters }, config: { legDeadlineMs: 4_000 } });
  // Count job reads, to show a waiting request does not poll the database.
  const find = app.deps.jobs.find.bind(app.deps.jobs);
  app.deps.jobs.find = (...args) => (finds++, find(...args));
});
afterAll(() => app.close());

interface Answer {
  data: { jobId?: string; status?: string; result?: unknown } & Record<string, unknown>;
  meta: { requestId: string; creditsCharged: number };
}

describe('Prefer: wait', () => {
  it('a call that would answer 202 answers 200 with the result when its job ends in time', async () => {
    const { key } = await app.newKey('sandbox');
    const res = await app.get('/v1/search?location=sandbox:async&platforms=airbnb,booking', key, { Prefer: 'respond-async, wait=15' });
    expect(res.status).toBe(200);
    expect(res.headers.get('preference-applied')).toBe('wait=15');
    expect(res.headers.get('retry-after')).toBeNull();
    const body = (await res.json()) as Answer;
    const sync = (await (await app.get('/v1/search?location=Lisbon&platforms=airbnb,booking', key)).json()) as Answer;
    expect(body.data).toEqual(sync.data);
    expect(body.meta.requestId).toBe(res.headers.get('x-request-id'));
  });

  it('answers the usual 202 with Preference-Applied when the job is still running at the deadline', async () => {
    const { key } = await app.newKey('live', { plan: 'scale', credits: 100 });
    fake.set('vrbo', { expectedMs: 30_000, delayMs: 2_500 });
    const res = await app.get('/v1/search?location=Chicago&platforms=vrbo', key, { Prefer: 'wait=1' });
    expect(res.status).toBe(202);
    expect(res.headers.get('preference-applied')).toBe('wait=1');
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const accepted = (await res.json()) as Answer;

    // The long poll then picks up the result in one request, without a poll loop.
    finds = 0;
    const poll = await app.get(`/v1/jobs/${accepted.data.jobId}`, key, { Prefer: 'wait=20' });
    fake.reset();
    expect(poll.status).toBe(200);
    expect(poll.headers.get('preference-applied')).toBe('wait=20');
    const done = (await poll.json()) as Answer;
    expect(done.data.status).toBe('completed');
    expect(done.meta.creditsCharged).toBe(5);
    expect(finds).toBeLessThanOrEqual(3); // the poll's own read, one before waiting, one after waking
  });

  it('caps the wait at 30 s and ignores a preference it cannot read', async () => {
    const { key } = await app.newKey('sandbox');
    const capped = await app.get('/v1/price-compare?name=sandbox:async&checkIn=2031-01-10&checkOut=2031-01-12', key, { Prefer: 'wait=3600' });
    expect(capped.status).toBe(200);
    expect(capped.headers.get('preference-applied')).toBe('wait=30');
    for (const prefer of ['wait=soon', 'wait=-1', 'wait=0', 'handling=lenient']) {
      const res = await app.get('/v1/search?location=sandbox:async&platforms=vrbo', key, { Prefer: prefer });
      expect(res.status, prefer).toBe(202);
      expect(res.headers.get('preference-applied'), prefer).toBeNull();
    }
  });

  it('a job that fails while the call waits answers the error the synchronous call would give', async () => {
    const { key, accountId } = await app.newKey('live', { credits: 100 });
    fake.set('booking', { expectedMs: 30_000, mode: 'empty' });
    const res = await app.get('/v1/listing/booking/2000009', key, { Prefer: 'wait=15' });
    fake.reset();
    expect((await expectError(res, 404, 'listing_not_found')).retryable).toBe(false);
    const [row] = await app.sql<{ b: string }[]>`select credit_balance::text as b from accounts where id = ${accountId}`;
    expect(row!.b).toBe('100');
  });

  it('many waiting requests share one listening connection, and a job ended elsewhere wakes them', async () => {
    const { key, accountId } = await app.newKey('live', { plan: 'scale', credits: 100 });
    fake.set('airbnb', { expectedMs: 30_000, mode: 'hang' });
    const res = await app.get('/v1/listing/airbnb/40000555', key);
    expect(res.status).toBe(202);
    const { data } = (await res.json()) as Answer;
    const waiting = Array.from({ length: 20 }, () => app.get(`/v1/jobs/${data.jobId}`, key, { Prefer: 'wait=25' }));
    await new Promise((r) => setTimeout(r, 500));
    const [listeners] = await app.sql<{ n: string }[]>`
      select count(*)::text as n from pg_stat_activity where datname = current_database() and application_name = 'accommodation-data-service-events'`;
    expect(listeners!.n).toBe('1');
    // Another process (this test's own connection) ends the job; the trigger's notification wakes every waiter.
    await app.sql`update async_jobs set status = 'failed', error = ${app.sql.json({ code: 'upstream_unavailable', message: 'ended elsewhere', requestId: 'req_x', retryable: true, docUrl: 'x' })}
                  where id = ${data.jobId!} and account_id = ${accountId}`;
    const answers = await Promise.all(waiting);
    fake.reset();
    for (const a of answers) {
      expect(a.status).toBe(200);
      expect(((await a.json()) as Answer).data.status).toBe('failed');
    }
  });
});

describe('Prefer: wait with an Idempotency-Key', () => {
  it('a replayed 202 waits on the same job, and answers its result once it ends', async () => {
    const { key, accountId } = await app.newKey('live', { plan: 'scale', credits: 100 });
    fake.set('vrbo', { expectedMs: 30_000, delayMs: 1_500 });
    const path = '/v1/search?location=Porto&platforms=vrbo';
    const first = await app.get(path, key, { 'Idempotency-Key': 'wait-replay' });
    expect(first.status).toBe(202);
    const { data } = (await first.json()) as Answer;
    const replayed = await app.get(path, key, { 'Idempotency-Key': 'wait-replay', Prefer: 'wait=20' });
    fake.reset();
    expect(replayed.status).toBe(200);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.headers.get('preference-applied')).toBe('wait=20');
    const body = (await replayed.json()) as Answer;
    expect(body.meta.creditsCharged).toBe(5);
    const rows = await app.sql<{ entry_key: string }[]>`select entry_key from credit_ledger where account_id = ${accountId} and amount < 0`;
    expect(rows.map((r) => r.entry_key)).toEqual([`job:${data.jobId!}`]);
  });
});

describe('Prefer: wait at shutdown', () => {
  it('closing the job events answers waiting long polls at once, and later ones without waiting', async () => {
    const { key } = await app.newKey('live', { plan: 'scale', credits: 100 });
    fake.set('airbnb', { expectedMs: 30_000, mode: 'hang' });
    const accepted = (await (await app.get('/v1/listing/airbnb/40000666', key)).json()) as Answer;
    const waiting = app.get(`/v1/jobs/${accepted.data.jobId!}`, key, { Prefer: 'wait=30' });
    await new Promise((r) => setTimeout(r, 300));
    await app.deps.jobEvents.close();
    const res = await waiting;
    expect(res.status).toBe(200);
    expect(((await res.json()) as Answer).data.status).toMatch(/pending|running/);
    const later = await app.get(`/v1/jobs/${accepted.data.jobId!}`, key, { Prefer: 'wait=30' });
    expect(later.status).toBe(200);
    expect(later.headers.get('preference-applied')).toBeNull();
    fake.reset();
  });
});
