import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { replayLiveConfig, startReplayUpstream, type ReplayUpstream } from '../support/replay-upstream.js';
import { startTestApp, type TestApp } from '../support/app.js';

/**
 * Issue 23, item 2: a live call holds its worst-case cost before any platform is asked, so
 * parallel calls beyond what the balance can pay are free 402s that cost us no upstream request.
 * Requests are counted where they arrive: at the replay upstream.
 */
let app: TestApp;
let replay: ReplayUpstream;
let upstreamRequests = 0;

beforeAll(async () => {
  replay = await startReplayUpstream();
  replay.server.prependListener('request', (req) => {
    if (!req.url?.startsWith('/__replay')) upstreamRequests++;
  });
  // Slow enough that all 50 calls are in flight together, as a burst would be.
  await fetch(`${replay.url}/__replay`, { method: 'POST', body: JSON.stringify({ delayMs: 200 }) });
  app = await startTestApp({ config: { legDeadlineMs: 5_000, asyncThresholdMs: 60_000, live: replayLiveConfig(replay.url, { timeoutMs: 5_000, retries: 0, concurrency: 64 }) } });
});
beforeEach(() => void (upstreamRequests = 0));
afterAll(async () => {
  await app.close();
  await replay.close();
});

let day = 0;
/** A four-platform search (worst case 20 credits) with dates of its own: never from cache. */
function search(key: string): Promise<Response> {
  const d = (n: number) => new Date(Date.UTC(2028, 0, 1 + n)).toISOString().slice(0, 10);
  day += 3;
  return app.get(`/v1/search?location=Lisbon&platforms=airbnb,booking,vrbo,google&checkIn=${d(day)}&checkOut=${d(day + 2)}`, key);
}

describe('credit holds', () => {
  it('50 parallel calls on 100 credits ask the platforms only for the calls the balance can pay', async () => {
    const probe = await app.newKey('live', { plan: 'enterprise', credits: 1_000 });
    expect((await search(probe.key)).status).toBe(200);
    const perCall = upstreamRequests;
    expect(perCall).toBeGreaterThanOrEqual(4);

    upstreamRequests = 0;
    const { key, accountId } = await app.newKey('live', { plan: 'enterprise', credits: 100 });
    const answers = await Promise.all(Array.from({ length: 50 }, () => search(key)));
    const statuses = answers.map((r) => r.status);
    const paid = statuses.filter((s) => s === 200).length;
    // Five calls hold 20 each; a sixth may start once one settled below its worst case.
    expect(paid).toBeGreaterThanOrEqual(5);
    expect(paid).toBeLessThanOrEqual(7);
    expect(statuses.filter((s) => s === 402)).toHaveLength(50 - paid);
    // Without holds every call passed the (cached) balance check and asked all four platforms.
    expect(upstreamRequests).toBeLessThanOrEqual(paid * perCall);

    // The ledger stays exact: the balance moved by exactly what the rows say, holds all gone.
    const [row] = await app.sql<{ sum: string; n: string }[]>`select coalesce(sum(amount), 0)::text as sum, count(*)::text as n from credit_ledger where account_id = ${accountId} and entry_key like 'req:%'`;
    expect(await app.balanceOf(accountId)).toBe(100 + Number(row!.sum));
    expect(Number(row!.n)).toBe(paid);
    const [holds] = await app.sql<{ n: string }[]>`select count(*)::text as n from credit_holds where account_id = ${accountId}`;
    expect(holds!.n).toBe('0');
  });

  it('releases a hold when the call charges nothing, so the next call may use it', async () => {
    const { key, accountId } = await app.newKey('live', { plan: 'enterprise', credits: 20 });
    await fetch(`${replay.url}/__replay`, { method: 'POST', body: JSON.stringify({ errorRate: 1 }) });
    try {
      expect((await search(key)).status).toBe(503);
    } finally {
      await fetch(`${replay.url}/__replay`, { method: 'POST', body: JSON.stringify({ errorRate: 0 }) });
    }
    const [holds] = await app.sql<{ n: string }[]>`select count(*)::text as n from credit_holds where account_id = ${accountId}`;
    expect(holds!.n).toBe('0');
    const res = await search(key);
    expect(res.status).toBe(200);
    const charged = ((await res.json()) as { meta: { creditsCharged: number } }).meta.creditsCharged;
    expect(charged).toBeGreaterThan(0);
    expect(await app.balanceOf(accountId)).toBe(20 - charged);
  });

  it('counts a hold that names no process (one of a previous release, or a job) until it expires', async () => {
    const { key, accountId } = await app.newKey('live', { plan: 'enterprise', credits: 20 });
    await app.sql`insert into credit_holds (id, account_id, amount, expires_at) values ('req:dead', ${accountId}, 20, now() + interval '1 hour')`;
    expect((await search(key)).status).toBe(402);
    await app.sql`update credit_holds set expires_at = now() - interval '1 second' where id = 'req:dead'`;
    expect((await search(key)).status).toBe(200);
  });
});
