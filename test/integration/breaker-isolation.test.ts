import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replayLiveConfig, startReplayUpstream, type ReplayUpstream } from '../support/replay-upstream.js';
import { startTestApp, type TestApp } from '../support/app.js';

/**
 * Issue 35, item 1: a circuit breaker hears only what the platform did. Two accounts flood airbnb
 * with batches of unknown, well-formed ids through a healthy replay upstream (300 ms a request,
 * the LEG_DEADLINE_MS=4000 and UPSTREAM_TIMEOUT_MS=1500). Their legs end in ways that are
 * not the platform's doing: a 404 for each unknown id, a deadline passing in the queue, just after
 * a slot was granted or with the request in flight, a caller that went away. None of it may open
 * the shared breaker for a third account. A platform that truly fails for everyone still opens it.
 */
let app: TestApp;
let replay: ReplayUpstream;
const lines: string[] = [];
const received = { airbnb: 0, vrbo: 0, booking: 0 };

beforeAll(async () => {
  replay = await startReplayUpstream();
  replay.server.on('request', (req) => {
    const platform = req.url?.split('/')[1];
    if (platform && platform in received) received[platform as keyof typeof received]++;
  });
  await fetch(`${replay.url}/__replay`, { method: 'POST', body: JSON.stringify({ platform: 'airbnb', delayMs: 300 }) });
  app = await startTestApp({
    log: pino({ level: 'info' }, { write: (line: string) => void lines.push(line) }),
    config: { legDeadlineMs: 4_000, asyncThresholdMs: 60_000, live: replayLiveConfig(replay.url, { timeoutMs: 1_500, retries: 2, concurrency: 8, accountConcurrency: 6 }) },
  });
});
afterAll(async () => {
  await app.close();
  await replay.close();
});

let serial = 0;
const ids = (n: number) => Array.from({ length: n }, () => 80_000_000 + ++serial).join(',');
const availability = (platform: string, n: number) => `/v1/availability?platform=${platform}&listingIds=${ids(n)}&startDate=2027-06-07&endDate=2027-06-13`;
/** A search no earlier call has cached: its own stay dates. */
const search = (platform: string) => {
  const day = (d: number) => new Date(Date.UTC(2027, 0, 1) + d * 86_400_000).toISOString().slice(0, 10);
  const n = ++serial % 300;
  return `/v1/search?location=Porto&platforms=${platform}&checkIn=${day(n)}&checkOut=${day(n + 2)}`;
};
const accounts = (n: number, credits: number) => Promise.all(Array.from({ length: n }, () => app.newKey('live', { plan: 'scale', credits })));
const openings = (platform: string) => lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => String(l.msg).startsWith('circuit breaker opened') && l.platform === platform);

/**
 * One batch of 50 unknown ids; the caller goes away after `leaveAfterMs` when given (its legs run
 * on to their end, as every leg does, and must count only for what the platform did).
 */
async function attack(key: string, leaveAfterMs?: number): Promise<number | 'left'> {
  const signal = leaveAfterMs === undefined ? null : AbortSignal.timeout(leaveAfterMs);
  try {
    return (await fetch(`${app.baseUrl}${availability('airbnb', 50)}`, { headers: { Authorization: `Bearer ${key}` }, signal })).status;
  } catch (err) {
    if (signal?.aborted) return 'left';
    throw err;
  }
}

describe('the shared breaker of a platform', () => {
  it("stays closed while two accounts flood it with unknown ids: a third account's searches all succeed, the attackers pay nothing", async () => {
    const attackers = await accounts(2, 2_000);
    const [victim] = await accounts(1, 1_000);
    // Ten parallel batches each; one attacker walks away from half of its calls after a second.
    const floods = attackers.flatMap((a, i) => Array.from({ length: 10 }, (_, n) => attack(a.key, i === 1 && n % 2 ? 1_000 : undefined)));
    const searches: string[] = [];
    for (let i = 0; i < 12; i++) {
      await new Promise((r) => setTimeout(r, 500));
      const res = await app.get(`/v1/search?location=Lisbon&platforms=airbnb&checkIn=2027-0${1 + (i % 9)}-1${i % 10}&checkOut=2027-0${1 + (i % 9)}-2${i % 10}`, victim!.key);
      const leg = ((await res.json()) as { meta?: { platformResults: { status: string; error?: string }[] } }).meta?.platformResults[0];
      searches.push(`${res.status} ${leg?.status ?? ''} ${leg?.error ?? ''}`.trim());
    }
    const outcomes = await Promise.all(floods);

    expect(searches).toEqual(Array.from({ length: 12 }, () => '200 ok'));
    expect(openings('airbnb')).toEqual([]);
    // The breaker heard no leg that did not reach the platform (the issue saw 241 for 107).
    expect(app.deps.breakers.window('airbnb')).toMatchObject({ faults: 0 });
    expect(app.deps.breakers.window('airbnb').calls).toBeLessThanOrEqual(received.airbnb);
    // Unknown ids are free and so is every leg that timed out; a caller who left is never a 500.
    for (const o of outcomes) expect([200, 404, 503, 'left']).toContain(o);
    for (const a of attackers) expect(await app.balanceOf(a.accountId)).toBe(2_000);
    expect(await app.balanceOf(victim!.accountId)).toBe(1_000 - 12 * 5);
  }, 60_000);

  it('opens when the platform answers 502 to every account: then legs fail at once, free, without reaching it', async () => {
    await fetch(`${replay.url}/__replay`, { method: 'POST', body: JSON.stringify({ platform: 'vrbo', errorRate: 1 }) });
    const keys = await accounts(3, 1_000);
    await Promise.all(keys.flatMap((k) => [0, 1, 2, 3].map(() => app.get(search('vrbo'), k.key))));
    expect(openings('vrbo')).toHaveLength(1);
    expect(openings('vrbo')[0]).toMatchObject({ accounts: 3 });

    const before = received.vrbo;
    const res = await app.get(search('vrbo'), keys[0]!.key);
    expect(res.status).toBe(503);
    expect(await res.text()).toContain('circuit_open');
    expect(received.vrbo).toBe(before);
    for (const k of keys) expect(await app.balanceOf(k.accountId)).toBe(1_000);
  }, 30_000);

  it('opens when the platform never answers: its per-attempt timeouts are faults, though the leg deadline ends the retries', async () => {
    await fetch(`${replay.url}/__replay`, { method: 'POST', body: JSON.stringify({ platform: 'booking', hangRate: 1 }) });
    const keys = await accounts(3, 1_000);
    // Each sent leg sees one or two attempts time out (1.5 s each) before the 4 s deadline cuts the
    // next; eight connections hold eight legs a round, so two rounds pass the ten legs needed.
    for (let round = 0; round < 2; round++) await Promise.all(keys.flatMap((k) => [0, 1, 2].map(() => app.get(search('booking'), k.key))));
    expect(openings('booking')).toHaveLength(1);
    const [opened] = openings('booking');
    expect(opened).toMatchObject({ accounts: 3, faults: opened!.calls });
    for (const k of keys) expect(await app.balanceOf(k.accountId)).toBe(1_000);
  }, 30_000);
});
