import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { expectError } from '../support/common-rules.js';
import { fakePlatforms, type FakePlatforms } from '../support/fake-platforms.js';

/** Idempotency-Key on billed REST operations, over real HTTP and real PostgreSQL (issue 17 item 1). */
let app: TestApp;
let fake: FakePlatforms;
beforeAll(async () => {
  fake = fakePlatforms();
  app = await startTestApp({ worker: true, platforms: { live: fake.adapters } });
});
afterAll(() => app.close());

interface Envelope {
  data: unknown;
  meta: { requestId: string; creditsCharged: number };
}

async function charges(accountId: string): Promise<string[]> {
  const rows = await app.sql<{ entry_key: string }[]>`select entry_key from credit_ledger where account_id = ${accountId} and amount < 0 order by id`;
  return rows.map((r) => r.entry_key);
}

const withKey = (key: string, idem: string, extra: Record<string, string> = {}) => ({ Authorization: `Bearer ${key}`, 'Idempotency-Key': idem, ...extra });

describe('Idempotency-Key', () => {
  it('20 parallel identical requests with one key: one charge, one platform call, the rest 409 or replays', async () => {
    const { key, accountId } = await app.newKey('live', { plan: 'scale', credits: 100 });
    fake.set('airbnb', { delayMs: 1_500 }); // long enough for every repeat to arrive while the first runs
    const calls = fake.calls();
    const path = '/v1/search?location=Lisbon&platforms=airbnb';
    const answers = await Promise.all(Array.from({ length: 20 }, () => fetch(`${app.baseUrl}${path}`, { headers: withKey(key, 'order-1') })));
    fake.reset();
    const statuses = answers.map((r) => r.status);
    const first = answers.filter((r) => r.status === 200 && r.headers.get('idempotent-replayed') === null);
    expect(first).toHaveLength(1);
    for (const r of answers) {
      if (r.status === 409) {
        const error = await expectError(r, 409, 'idempotency_key_in_use');
        expect(error).toMatchObject({ retryable: true, param: 'Idempotency-Key' });
        expect(r.headers.get('retry-after')).toBe('1');
      } else {
        expect(r.status).toBe(200);
      }
    }
    expect(statuses.filter((s) => s === 409).length).toBeGreaterThan(0);
    const body = (await first[0]!.json()) as Envelope;
    expect(body.meta.creditsCharged).toBe(5);
    expect(fake.calls() - calls).toBe(1);
    expect(await charges(accountId)).toEqual([`req:${body.meta.requestId}`]);
    expect(await app.balanceOf(accountId)).toBe(95);

    // Once stored, a repeat is the stored answer: not billed, no platform call.
    const again = await app.get(path, key, { 'Idempotency-Key': 'order-1' });
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.headers.get('x-request-id')).not.toBe(body.meta.requestId);
    expect(await again.json()).toEqual(body);
    expect(fake.calls() - calls).toBe(1);
    expect(await app.balanceOf(accountId)).toBe(95);
  });

  it('the same key for a different request is 422; the same request spelled differently is a replay', async () => {
    const { key } = await app.newKey('live', { plan: 'scale', credits: 100 });
    const first = await app.get('/v1/search?location=Porto&platforms=airbnb,booking', key, { 'Idempotency-Key': 'k-422' });
    expect(first.status).toBe(200);
    const same = await app.get('/v1/search?platforms[]=airbnb&platforms[]=booking&location=Porto&limit=20', key, { 'Idempotency-Key': 'k-422' });
    expect(same.status).toBe(200);
    expect(same.headers.get('idempotent-replayed')).toBe('true');
    const other = await app.get('/v1/search?location=Madrid&platforms=airbnb,booking', key, { 'Idempotency-Key': 'k-422' });
    expect(await expectError(other, 422, 'idempotency_key_reused')).toMatchObject({ param: 'Idempotency-Key', retryable: false });
    const byBody = await fetch(`${app.baseUrl}/v1/search`, {
      method: 'POST',
      headers: withKey(key, 'k-422', { 'Content-Type': 'application/json' }),
      body: JSON.stringify({ location: 'Porto', platforms: ['airbnb', 'booking'] }),
    });
    await expectError(byBody, 422, 'idempotency_key_reused');
    // Keys belong to an account: another account's identical key is its own.
    const stranger = await app.newKey('live', { plan: 'scale', credits: 100 });
    const theirs = await app.get('/v1/search?location=Madrid&platforms=airbnb', stranger.key, { 'Idempotency-Key': 'k-422' });
    expect(theirs.status).toBe(200);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
  });

  it('keys must be 1 to 255 printable characters, else 400 naming the header', async () => {
    const { key, accountId } = await app.newKey('live', { plan: 'scale', credits: 100 });
    const calls = fake.calls();
    for (const bad of ['', 'x'.repeat(256), 'tab\there', 'caf\u00e9']) {
      const res = await app.get('/v1/search?location=Lisbon&platforms=airbnb', key, { 'Idempotency-Key': bad });
      expect(await expectError(res, 400, 'invalid_request')).toMatchObject({ param: 'Idempotency-Key', subCode: 'invalid_idempotency_key' });
    }
    expect(fake.calls()).toBe(calls);
    expect(await app.balanceOf(accountId)).toBe(100);
    const longest = await app.get('/v1/price?platform=airbnb&listingId=40000001&checkIn=2031-02-01&checkOut=2031-02-03', key, { 'Idempotency-Key': `a ${'~'.repeat(253)}` });
    expect(longest.status).toBe(200);
  });

  it('an error is not stored: the same key runs again and then succeeds', async () => {
    const { key, accountId } = await app.newKey('live', { plan: 'scale', credits: 100 });
    fake.set('airbnb', { mode: 'fail' });
    const failed = await app.get('/v1/listing/airbnb/40000077', key, { 'Idempotency-Key': 'retry-me' });
    fake.reset();
    await expectError(failed, 503, 'upstream_unavailable');
    const ok = await app.get('/v1/listing/airbnb/40000077', key, { 'Idempotency-Key': 'retry-me' });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('idempotent-replayed')).toBeNull();
    expect(await app.balanceOf(accountId)).toBe(99);
  });

  it('a 202 is stored too: the repeat returns the same job', async () => {
    const { key, accountId } = await app.newKey('live', { plan: 'scale', credits: 100 });
    fake.set('vrbo', { expectedMs: 30_000, delayMs: 300 });
    const path = '/v1/search?location=Chicago&platforms=vrbo';
    const accepted = await app.get(path, key, { 'Idempotency-Key': 'job-once' });
    expect(accepted.status).toBe(202);
    const { data } = (await accepted.json()) as { data: { jobId: string } };
    const again = await app.get(path, key, { 'Idempotency-Key': 'job-once' });
    expect(again.status).toBe(202);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(((await again.json()) as { data: { jobId: string } }).data.jobId).toBe(data.jobId);
    // Even after the job ended (and a new identical call would start a new job), the key gives the same job.
    for (let i = 0; i < 100; i++) {
      const [row] = await app.sql<{ status: string }[]>`select status from async_jobs where id = ${data.jobId}`;
      if (row!.status === 'completed') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    fake.reset();
    const later = await app.get(path, key, { 'Idempotency-Key': 'job-once' });
    expect(((await later.json()) as { data: { jobId: string } }).data.jobId).toBe(data.jobId);
    expect(await charges(accountId)).toEqual([`job:${data.jobId}`]);
  });

  it('the stored answer and its charge commit together: when storing fails, nothing is charged', async () => {
    const { key, accountId } = await app.newKey('live', { plan: 'scale', credits: 100 });
    // Make storing this one answer fail inside the transaction that also posts the charge.
    await app.sql.unsafe(`alter table idempotency_keys add constraint refuse_store check (status <> 'done' or key <> 'cannot-store')`);
    try {
      const res = await app.get('/v1/listing/airbnb/40000078', key, { 'Idempotency-Key': 'cannot-store' });
      await expectError(res, 500, 'internal_error');
      expect(await charges(accountId)).toEqual([]);
      expect(await app.balanceOf(accountId)).toBe(100);
    } finally {
      await app.sql.unsafe('alter table idempotency_keys drop constraint refuse_store');
    }
    const ok = await app.get('/v1/listing/airbnb/40000078', key, { 'Idempotency-Key': 'stored' });
    const body = (await ok.json()) as Envelope;
    const [row] = await app.sql<{ status: string; response_status: number; response_body: unknown }[]>`
      select status, response_status, response_body from idempotency_keys where account_id = ${accountId} and key = 'stored'`;
    expect(row).toEqual({ status: 'done', response_status: 200, response_body: body });
    expect(await charges(accountId)).toEqual([`req:${body.meta.requestId}`]);
  });

  it('free operations and sandbox keys accept the header', async () => {
    const { key } = await app.newKey('sandbox');
    const a = await app.get('/v1/search?location=Lisbon', key, { 'Idempotency-Key': 'sb' });
    const b = await app.get('/v1/search?location=Lisbon', key, { 'Idempotency-Key': 'sb' });
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(b.headers.get('idempotent-replayed')).toBe('true');
    expect((await app.get('/v1/account', key, { 'Idempotency-Key': 'sb' })).status).toBe(200);
  });
});
