import { pino } from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { expectError } from '../support/common-rules.js';
import { fakePlatforms, type FakePlatforms, type LegMode } from '../support/fake-platforms.js';

/**
 * The live platforms' circuit breakers, end to end over HTTP with the default window rule (at
 * least 10 legs in 10 s, surely half of them platform faults, from at least 2 accounts). Each test uses
 * its own platform, so the windows of one test do not carry into the next. Every listing id is
 * new, so no leg comes from cache.
 */
let app: TestApp;
let fake: FakePlatforms;
let serial = 0;
const lines: string[] = [];

beforeAll(async () => {
  fake = fakePlatforms();
  app = await startTestApp({ log: pino({ level: 'info' }, { write: (line: string) => void lines.push(line) }), platforms: { live: fake.adapters }, config: { legDeadlineMs: 400, breakerHalfOpenMs: 300 } });
});
beforeEach(() => fake.reset());
afterAll(() => app.close());

const ID_BASE = { airbnb: 40_000_000, booking: 2_000_000, vrbo: 6_000_000 } as const;
type Live = keyof typeof ID_BASE;

/** One listing call with the platform answering `mode`; true when the leg reached the platform. */
async function leg(platform: Live, key: string, mode: LegMode): Promise<{ reached: boolean; status: number; body: string }> {
  fake.set(platform, { mode });
  const before = fake.calls();
  const res = await app.get(`/v1/listing/${platform}/${ID_BASE[platform] + ++serial}`, key);
  return { reached: fake.calls() > before, status: res.status, body: await res.text() };
}

async function accounts(n: number): Promise<string[]> {
  return Promise.all(Array.from({ length: n }, async () => (await app.newKey('live', { plan: 'scale', credits: 1_000 })).key));
}

describe('live circuit breakers', () => {
  it('are never opened by one account alone, however many of its legs fail', async () => {
    const [mine, theirs] = await accounts(2);
    for (let i = 0; i < 25; i++) expect((await leg('airbnb', mine!, 'fail')).reached).toBe(true);
    for (let i = 0; i < 5; i++) expect((await leg('airbnb', mine!, 'blocked')).reached).toBe(true);
    const other = await leg('airbnb', theirs!, 'ok');
    expect({ reached: other.reached, status: other.status }).toEqual({ reached: true, status: 200 });
  });

  it('stay closed while a platform blocks 30% of legs, and open when it blocks them all', async () => {
    const keys = await accounts(3);
    // 40 legs from three accounts, 30% blocked in runs of 6 (a run that a breaker counting
    // failures in a row would open on): every one is tried.
    for (let i = 0; i < 40; i++) {
      const r = await leg('booking', keys[i % 3]!, i % 20 < 6 ? 'blocked' : 'ok');
      expect(r.reached).toBe(true);
    }
    // Then every answer blocked: the window crosses half, and legs are refused untried.
    let refused: Awaited<ReturnType<typeof leg>> | null = null;
    for (let i = 0; i < 80 && !refused; i++) {
      const r = await leg('booking', keys[i % 3]!, 'blocked');
      if (!r.reached) refused = r;
    }
    expect(refused).not.toBeNull();
    expect(refused!.status).toBe(503);
    expect(JSON.parse(refused!.body).error.message).toContain('circuit_open');
    const opened = lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => String(l.msg).startsWith('circuit breaker opened'));
    expect(opened).toHaveLength(1);
    expect(opened[0]).toMatchObject({ level: 40, platform: 'booking', accounts: 3 });
    expect(opened[0]!.faults as number).toBeGreaterThanOrEqual((opened[0]!.calls as number) / 2);
  });

  it('let one probe through after the half-open delay, and close when it succeeds', async () => {
    const keys = await accounts(2);
    let open = false;
    for (let i = 0; i < 40 && !open; i++) open = !(await leg('vrbo', keys[i % 2]!, 'fail')).reached;
    expect(open).toBe(true);
    await new Promise((r) => setTimeout(r, 350));
    const probe = await leg('vrbo', keys[0]!, 'ok');
    expect({ reached: probe.reached, status: probe.status }).toEqual({ reached: true, status: 200 });
    for (let i = 0; i < 5; i++) expect((await leg('vrbo', keys[1]!, 'ok')).reached).toBe(true);
  });

  it('report refused legs as circuit_open beside the legs that answered', async () => {
    const keys = await accounts(2);
    let open = false;
    for (let i = 0; i < 40 && !open; i++) open = !(await leg('vrbo', keys[i % 2]!, 'fail')).reached;
    expect(open).toBe(true);
    const res = await app.get(`/v1/search?location=Porto&platforms=airbnb,vrbo&checkIn=2031-03-0${1 + (serial % 8)}&checkOut=2031-03-10`, keys[0]);
    const body = (await res.json()) as { meta: { partial: boolean; platformResults: { platform: string; status: string; error?: string; creditsCharged: number }[] } };
    expect(res.status).toBe(200);
    expect(body.meta.platformResults.find((r) => r.platform === 'vrbo')).toMatchObject({ status: 'failed', error: 'circuit_open', creditsCharged: 0 });
    await expectError(await app.get(`/v1/listing/vrbo/${ID_BASE.vrbo + ++serial}`, keys[1]), 503, 'upstream_unavailable');
  });
});
