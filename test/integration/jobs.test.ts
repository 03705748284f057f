import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { expectError } from '../support/common-rules.js';
import { fakePlatforms, type FakePlatforms } from '../support/fake-platforms.js';
import { SANDBOX_ASYNC_JOB_MS } from '../../src/adapters/platforms/sandbox/adapter.js';

/** Async jobs end to end: 202 -> worker (in process) -> poll, on real PostgreSQL and graphile-worker. */
let app: TestApp;
let fake: FakePlatforms;
beforeAll(async () => {
  fake = fakePlatforms();
  app = await startTestApp({ worker: true, platforms: { live: fake.adapters } });
});
afterAll(() => app.close());

interface Poll {
  data: { jobId: string; status: string; pollUrl: string; estimatedSeconds?: number; result?: unknown; error?: { code: string } };
  meta: { requestId: string; creditsCharged: number; platforms: string[]; currency?: string; platformResults?: { creditsCharged: number }[]; warnings?: unknown[] };
}

async function pollUntilDone(jobId: string, key: string, timeoutMs = 15_000): Promise<{ final: Poll; seen: Set<string> }> {
  const seen = new Set<string>();
  const started = Date.now();
  for (;;) {
    const res = await app.get(`/v1/jobs/${jobId}`, key);
    expect(res.status).toBe(200);
    const body = (await res.json()) as Poll;
    seen.add(body.data.status);
    if (body.data.status === 'completed' || body.data.status === 'failed') return { final: body, seen };
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(body.data.estimatedSeconds).toBeGreaterThanOrEqual(1);
    expect(body.meta.creditsCharged).toBe(0);
    if (Date.now() - started > timeoutMs) throw new Error(`job ${jobId} still ${body.data.status}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

describe('sandbox:async', () => {
  it('answers 202 at once and completes with what the synchronous call returns', async () => {
    const { key } = await app.newKey('sandbox');
    const res = await app.get('/v1/search?location=sandbox:async&platforms=airbnb,booking', key);
    expect(res.status).toBe(202);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const accepted = (await res.json()) as Poll;
    // The estimate is what the sandbox job really takes (its run plus the pickup), not the projection that sent it async.
    expect(accepted.data).toMatchObject({ status: 'pending', estimatedSeconds: Math.ceil(SANDBOX_ASYNC_JOB_MS / 1000) });
    expect(accepted.data.jobId).toMatch(/^job_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(accepted.data.pollUrl).toBe(`/v1/jobs/${accepted.data.jobId}`);
    expect(accepted.meta).toEqual({ requestId: res.headers.get('x-request-id'), creditsCharged: 0, platforms: ['airbnb', 'booking'] });

    const again = (await (await app.get('/v1/search?platforms=airbnb,booking&location=SANDBOX:ASYNC', key)).json()) as Poll;
    expect(again.data.jobId).toBe(accepted.data.jobId); // identical in-flight calls share one job

    const { final, seen } = await pollUntilDone(accepted.data.jobId, key);
    expect(seen.has('pending') || seen.has('running')).toBe(true);
    expect(final.data.status).toBe('completed');
    const sync = (await (await app.get('/v1/search?location=Lisbon&platforms=airbnb,booking', key)).json()) as { data: unknown };
    expect(final.data.result).toEqual(sync.data);
    expect(final.meta).toMatchObject({ creditsCharged: 0, currency: 'USD', platforms: ['airbnb', 'booking'] });
    expect(final.meta.platformResults).toHaveLength(2);
    expect(final.meta.requestId).not.toBe(accepted.meta.requestId);

    // Trigger calls are never cached: once the job is done, the same call is a new 202 and job.
    const after = await app.get('/v1/search?location=sandbox:async&platforms=airbnb,booking', key);
    expect(after.status).toBe(202);
    expect(((await after.json()) as Poll).data.jobId).not.toBe(accepted.data.jobId);
  });

  it('is only reachable by its owner', async () => {
    const owner = await app.newKey('sandbox');
    const other = await app.newKey('sandbox');
    const accepted = (await (await app.get('/v1/price-compare?name=sandbox:async&checkIn=2031-01-10&checkOut=2031-01-12', owner.key)).json()) as Poll;
    await expectError(await app.get(`/v1/jobs/${accepted.data.jobId}`, other.key), 404, 'job_not_found');
    await expectError(await app.get('/v1/jobs/job_01ARZ3NDEKTSV4RRFFQ69G5FAV', owner.key), 404, 'job_not_found');
    const { final } = await pollUntilDone(accepted.data.jobId, owner.key);
    expect((final.data.result as { offers: unknown[] }).offers.length).toBeGreaterThan(0);
  });

  it('belongs to the key kind that made it: sandbox and live keys of one account never read each other\'s jobs', async () => {
    const live = await app.newKey('live', { credits: 100 });
    const sandbox = await app.deps.admin.createKey(live.accountId, 'sandbox');
    fake.set('airbnb', { expectedMs: 30_000 });
    const liveRes = await app.get('/v1/price?platform=airbnb&listingId=40000077&checkIn=2031-04-01&checkOut=2031-04-03', live.key);
    fake.reset();
    expect(liveRes.status).toBe(202);
    const liveJob = ((await liveRes.json()) as Poll).data.jobId;
    const sandboxJob = ((await (await app.get('/v1/search?location=sandbox:async', sandbox.key)).json()) as Poll).data.jobId;
    await expectError(await app.get(`/v1/jobs/${liveJob}`, sandbox.key), 404, 'job_not_found');
    await expectError(await app.get(`/v1/jobs/${sandboxJob}`, live.key), 404, 'job_not_found');
    expect((await pollUntilDone(liveJob, live.key)).final.data.status).toBe('completed');
    expect((await pollUntilDone(sandboxJob, sandbox.key)).final.data.status).toBe('completed');
  });
});

describe('live jobs', () => {
  it('bills a completed job exactly once, and polls never charge', async () => {
    const { key, accountId } = await app.newKey('live', { plan: 'scale', credits: 100 });
    fake.set('vrbo', { expectedMs: 30_000, delayMs: 300 });
    const res = await app.get('/v1/search?location=Chicago&platforms=vrbo,airbnb', key);
    expect(res.status).toBe(202);
    const { data } = (await res.json()) as Poll;
    expect(await app.balanceOf(accountId)).toBe(100);
    const { final } = await pollUntilDone(data.jobId, key);
    fake.reset();
    expect(final.data.status).toBe('completed');
    expect(final.meta.creditsCharged).toBe(10);
    expect(final.meta.platformResults!.reduce((s, r) => s + r.creditsCharged, 0)).toBe(10);
    for (let i = 0; i < 3; i++) await app.get(`/v1/jobs/${data.jobId}`, key);
    expect(await app.balanceOf(accountId)).toBe(90);
    const rows = await app.sql<{ entry_key: string; amount: string }[]>`select entry_key, amount::text from credit_ledger where account_id = ${accountId} and amount < 0`;
    expect(rows).toEqual([{ entry_key: `job:${data.jobId}`, amount: '-10' }]);
  });

  it('books a job by its operation, platforms and outcome, even when its answer was shaped (POST /search, view=compact)', async () => {
    const { key, accountId } = await app.newKey('live', { plan: 'scale', credits: 100 });
    fake.set('vrbo', { expectedMs: 30_000, delayMs: 300 });
    const res = await fetch(`${app.baseUrl}/v1/search`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ location: 'Miami', platforms: ['vrbo', 'airbnb'], view: 'compact' }),
    });
    expect(res.status).toBe(202);
    const { data } = (await res.json()) as Poll;
    const { final } = await pollUntilDone(data.jobId, key);
    fake.reset();
    expect(final.data.status).toBe('completed');
    expect(final.meta.platformResults).toBeUndefined(); // the compact view drops them from the answer
    const [row] = await app.sql<{ reason: string; platforms: string[]; platform_credits: number[]; status: string; amount: string }[]>`
      select reason, platforms, platform_credits, status, amount::text from credit_ledger where account_id = ${accountId} and amount < 0`;
    expect(row).toEqual({ reason: 'search', platforms: ['vrbo', 'airbnb'], platform_credits: [5, 5], status: 'complete', amount: '-10' });
  });

  it('fails at 0 credits with the error the synchronous call would give', async () => {
    const { key, accountId } = await app.newKey('live', { credits: 100 });
    fake.set('booking', { expectedMs: 30_000, mode: 'empty' });
    const res = await app.get('/v1/listing/booking/2000001', key);
    expect(res.status).toBe(202);
    const { data } = (await res.json()) as Poll;
    const { final } = await pollUntilDone(data.jobId, key);
    fake.reset();
    expect(final.data.status).toBe('failed');
    expect(final.data.error).toMatchObject({ code: 'listing_not_found', retryable: false });
    expect(final.meta.creditsCharged).toBe(0);
    expect(await app.balanceOf(accountId)).toBe(100);
  });

  it('never answers 202 for a call served from cache', async () => {
    const { key } = await app.newKey('live', { credits: 100 });
    expect((await app.get('/v1/price?platform=airbnb&listingId=40000001&checkIn=2031-02-01&checkOut=2031-02-03', key)).status).toBe(200);
    fake.set('airbnb', { expectedMs: 30_000 });
    const cached = await app.get('/v1/price?platform=airbnb&listingId=40000001&checkIn=2031-02-01&checkOut=2031-02-03', key);
    fake.reset();
    expect(cached.status).toBe(200);
    expect(((await cached.json()) as { meta: { cached: boolean } }).meta.cached).toBe(true);
  });

  it('runs 100 jobs enqueued at once to completion', async () => {
    const { key } = await app.newKey('live', { plan: 'enterprise', credits: 10_000 });
    fake.set('airbnb', { expectedMs: 30_000 });
    const accepted = await Promise.all(
      Array.from({ length: 100 }, (_, i) => app.get(`/v1/price?platform=airbnb&listingId=${40000100 + i}&checkIn=2031-03-01&checkOut=2031-03-03`, key)),
    );
    expect(accepted.map((r) => r.status)).toEqual(Array(100).fill(202));
    const ids = await Promise.all(accepted.map(async (r) => ((await r.json()) as Poll).data.jobId));
    const deadline = Date.now() + 30_000;
    let done = 0;
    while (Date.now() < deadline) {
      const [row] = await app.sql<{ n: string }[]>`select count(*)::text as n from async_jobs where id = any(${ids}) and status = 'completed'`;
      done = Number(row!.n);
      if (done === 100) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    fake.reset();
    expect(done).toBe(100);
    const [billed] = await app.sql<{ n: string }[]>`select count(*)::text as n from credit_ledger where entry_key = any(${ids.map((id) => `job:${id}`)})`;
    expect(Number(billed!.n)).toBe(100);
  });
});
