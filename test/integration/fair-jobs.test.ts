import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replayLiveConfig, startReplayUpstream, type ReplayUpstream } from '../support/replay-upstream.js';
import { startTestApp, type TestApp } from '../support/app.js';

/**
 * Issue 23, item 3: the job queue is fair across accounts (at most JOB_ACCOUNT_CONCURRENCY jobs of
 * one account run at once; an account with fewer jobs waiting goes first), and a job the balance
 * could not pay, counting what other calls and jobs hold, is a free 402 at 202 time. B's job time
 * with A flooding is measured by `bench/fair-share.ts`, not asserted here.
 */
let app: TestApp;
let replay: ReplayUpstream;

beforeAll(async () => {
  replay = await startReplayUpstream();
  await fetch(`${replay.url}/__replay`, { method: 'POST', body: JSON.stringify({ platform: 'airbnb', delayMs: 700 }) });
  app = await startTestApp({
    worker: true,
    config: { jobAccountConcurrency: 2, asyncThresholdMs: 300, legDeadlineMs: 10_000, live: replayLiveConfig(replay.url, { timeoutMs: 10_000, retries: 0, concurrency: 8 }) },
  });
});
afterAll(async () => {
  await app.close();
  await replay.close();
});

interface Accepted {
  data: { jobId: string; status: string };
}

async function submit(path: string, key: string): Promise<string> {
  const res = await app.get(path, key);
  expect(res.status).toBe(202);
  return ((await res.json()) as Accepted).data.jobId;
}

const statusOf = async (jobId: string) => (await app.sql<{ status: string }[]>`select status from async_jobs where id = ${jobId}`)[0]!.status;

describe('a fair job queue', () => {
  it("runs B's job while A's flood waits, and never more than the cap of A's at once", async () => {
    const a = await app.newKey('sandbox');
    const b = await app.newKey('sandbox');
    // Each sandbox:async job runs 1.5 s; distinct limits keep them distinct jobs.
    const flood: string[] = [];
    for (let i = 0; i < 16; i++) flood.push(await submit(`/v1/search?location=sandbox:async&platforms=airbnb&limit=${i + 1}`, a.key));
    const mine = await submit('/v1/search?location=sandbox:async&platforms=booking', b.key);
    let mostRunning = 0;
    for (;;) {
      const [row] = await app.sql<{ n: number }[]>`select count(*)::int as n from async_jobs where account_id = ${a.accountId} and status = 'running'`;
      mostRunning = Math.max(mostRunning, row!.n);
      if ((await statusOf(mine)) === 'completed') break;
      await new Promise((r) => setTimeout(r, 50));
    }
    // First in, first out on 4 worker slots would have run 16 of A's jobs (4 rounds) before B's.
    const flooded = await Promise.all(flood.map(statusOf));
    expect(flooded.filter((s) => s === 'completed').length).toBeLessThanOrEqual(4);
    expect(mostRunning).toBeLessThanOrEqual(2);
    expect(mostRunning).toBeGreaterThanOrEqual(1);
  });

  it('refuses at 202 time a job the balance could not pay, counting what other jobs hold', async () => {
    const { key, accountId } = await app.newKey('live', { plan: 'enterprise', credits: 12 });
    const warm = await app.newKey('live', { plan: 'enterprise', credits: 100 });
    // Airbnb answers in 700 ms, past the 300 ms threshold: once the projection knows it (this
    // call teaches it, when the adapter declared no figure), calls answer 202.
    expect([200, 202]).toContain((await app.get('/v1/search?location=Lisbon&platforms=airbnb&checkIn=2029-03-01&checkOut=2029-03-03', warm.key)).status);
    const first = await submit('/v1/search?location=Lisbon&platforms=airbnb&checkIn=2029-04-01&checkOut=2029-04-03', key);
    const second = await submit('/v1/search?location=Lisbon&platforms=airbnb&checkIn=2029-04-05&checkOut=2029-04-07', key);
    // 12 credits, 10 held by two jobs (worst case 5 each): a third job is a free 402 at once.
    const third = await app.get('/v1/search?location=Lisbon&platforms=airbnb&checkIn=2029-04-09&checkOut=2029-04-11', key);
    expect(third.status).toBe(402);
    expect(((await third.json()) as { error: { code: string } }).error.code).toBe('credit_balance_too_low');
    const [jobs] = await app.sql<{ n: number }[]>`select count(*)::int as n from async_jobs where account_id = ${accountId}`;
    expect(jobs!.n).toBe(2);
    for (const id of [first, second]) {
      for (let i = 0; i < 200 && ['pending', 'running'].includes(await statusOf(id)); i++) await new Promise((r) => setTimeout(r, 100));
      expect(await statusOf(id)).toBe('completed');
    }
    // Both jobs settled their holds in their debits; the ledger and the balance agree.
    const [holds] = await app.sql<{ n: number }[]>`select count(*)::int as n from credit_holds where account_id = ${accountId}`;
    expect(holds!.n).toBe(0);
    const [sum] = await app.sql<{ s: string }[]>`select coalesce(sum(amount), 0)::text as s from credit_ledger where account_id = ${accountId} and entry_key like 'job:%'`;
    expect(await app.balanceOf(accountId)).toBe(12 + Number(sum!.s));
    expect(Number(sum!.s)).toBe(-10);
  });

  it('decides the holds of jobs accepted at once one by one, and gives identical calls one job with one hold', async () => {
    // Both bursts are accepted in the same moment, so they are written by batched enqueues.
    const { key, accountId } = await app.newKey('live', { plan: 'enterprise', credits: 23 });
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => app.get(`/v1/search?location=Lisbon&platforms=airbnb&checkIn=2029-05-${String(i + 1).padStart(2, '0')}&checkOut=2029-05-20`, key)),
    );
    const statuses = answers.map((r) => r.status).sort();
    // 23 credits, worst case 5 a job: four jobs, six free 402s.
    expect(statuses).toEqual([...Array(4).fill(202), ...Array(6).fill(402)]);
    const [jobs] = await app.sql<{ n: number }[]>`select count(*)::int as n from async_jobs where account_id = ${accountId}`;
    expect(jobs!.n).toBe(4);

    const twin = await app.newKey('live', { plan: 'enterprise', credits: 100 });
    const same = await Promise.all(Array.from({ length: 3 }, () => app.get('/v1/search?location=Lisbon&platforms=airbnb&checkIn=2029-06-01&checkOut=2029-06-03', twin.key)));
    expect(same.map((r) => r.status)).toEqual([202, 202, 202]);
    const ids = new Set(await Promise.all(same.map(async (r) => ((await r.json()) as Accepted).data.jobId)));
    expect(ids.size).toBe(1);
    const [twinHolds] = await app.sql<{ n: number; s: string }[]>`select count(*)::int as n, coalesce(sum(amount), 0)::text as s from credit_holds where account_id = ${twin.accountId}`;
    const twinJob = [...ids][0]!;
    // Held until the job settles: one hold of 5, or none once it has been debited.
    if ((await statusOf(twinJob)) === 'completed') expect(twinHolds!.n).toBe(0);
    else expect([twinHolds!.n, twinHolds!.s]).toEqual([1, '5']);

    const [all] = await app.sql<{ ids: string[] }[]>`select array_agg(id) as ids from async_jobs where account_id in (${accountId}, ${twin.accountId})`;
    for (const id of all!.ids) {
      for (let i = 0; i < 200 && ['pending', 'running'].includes(await statusOf(id)); i++) await new Promise((r) => setTimeout(r, 100));
      expect(await statusOf(id)).toBe('completed');
    }
    const [sum] = await app.sql<{ s: string }[]>`select coalesce(sum(amount), 0)::text as s from credit_ledger where account_id = ${accountId} and entry_key like 'job:%'`;
    expect(Number(sum!.s)).toBe(-20);
    expect(await app.balanceOf(accountId)).toBe(3);
    expect(await app.balanceOf(twin.accountId)).toBe(95);
    const [holds] = await app.sql<{ n: number }[]>`select count(*)::int as n from credit_holds where account_id in (${accountId}, ${twin.accountId})`;
    expect(holds!.n).toBe(0);
  });
});
