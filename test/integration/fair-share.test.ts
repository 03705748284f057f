import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replayLiveConfig, startReplayUpstream, type ReplayUpstream } from '../support/replay-upstream.js';
import { startTestApp, type TestApp } from '../support/app.js';

/**
 * Issue 23, item 1: one account's burst of free batches (unknown ids cost 0) fills a slow
 * platform's connections. Another account's search must still reach the platform, its leg `ok`,
 * and legs that only waited for a slot must never open the breaker for everyone. The figure
 * (victim p50 alone vs during the flood) is measured by `bench/fair-share.ts`, not asserted here.
 */
let app: TestApp;
let replay: ReplayUpstream;
const lines: string[] = [];

beforeAll(async () => {
  replay = await startReplayUpstream();
  await fetch(`${replay.url}/__replay`, { method: 'POST', body: JSON.stringify({ platform: 'airbnb', delayMs: 300, jitterMs: 100 }) });
  app = await startTestApp({
    log: pino({ level: 'info' }, { write: (line: string) => void lines.push(line) }),
    // A leg deadline far shorter than the flood takes to drain: without fair shares the victim's
    // leg waits behind 500 legs and times out, and the flood's waiting legs count as faults.
    config: { legDeadlineMs: 1_500, asyncThresholdMs: 60_000, live: replayLiveConfig(replay.url, { timeoutMs: 1_500, retries: 0, concurrency: 8, accountConcurrency: 6 }) },
  });
});
afterAll(async () => {
  await app.close();
  await replay.close();
});

let serial = 0;
const unknownIds = () => Array.from({ length: 50 }, () => 70_000_000 + ++serial).join(',');

describe('fair share of a platform connections', () => {
  it("keeps another account's airbnb leg ok while one account floods, and never opens the breaker", async () => {
    // Enough to hold ten batches' worst case (50 ids x 3 credits each), though unknown ids cost 0.
    const flood = await app.newKey('live', { plan: 'scale', credits: 2_000 });
    const victim = await app.newKey('live', { plan: 'scale', credits: 1_000 });
    const batches = Array.from({ length: 10 }, () => app.get(`/v1/availability?platform=airbnb&listingIds=${unknownIds()}&startDate=2027-06-07&endDate=2027-06-13`, flood.key).then((r) => r.status));
    await new Promise((r) => setTimeout(r, 200));
    const statuses: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await app.get(`/v1/search?location=Lisbon&platforms=airbnb&checkIn=2027-0${i + 4}-10&checkOut=2027-0${i + 4}-12`, victim.key);
      const body = (await res.json()) as { meta: { platformResults: { status: string }[] } };
      expect(res.status).toBe(200);
      statuses.push(body.meta.platformResults[0]!.status);
    }
    expect(statuses).toEqual(['ok', 'ok', 'ok']);
    // The flood's own legs that passed their deadline in the queue are timeouts (a batch whose
    // every leg did is a free 503), never faults: the breaker stays closed for everyone.
    for (const status of await Promise.all(batches)) expect([200, 503]).toContain(status);
    expect(lines.some((l) => l.includes('circuit breaker opened'))).toBe(false);
    // Unknown ids and timed-out legs are free; the victim paid for its three ok searches only.
    expect(await app.balanceOf(flood.accountId)).toBe(2_000);
    expect(await app.balanceOf(victim.accountId)).toBe(1_000 - 3 * 5);
  });
});
