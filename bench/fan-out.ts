/**
 * 4. Fan-out latency through the replay upstream: live adapters pointed at an in-process replay
 * server (src/replay/server.ts) whose airbnb, booking and vrbo answers wait 50, 150 and 400 ms.
 * Every search has new dates, so no leg comes from cache and all three really wait. Searches run
 * at 10 per second (open loop, a few in flight at once). The baseline, in alternating rounds, is
 * the slowest leg alone: vrbo's own upstream request, captured from the adapter and sent straight
 * to the replay server by the same client. Goals: p50 <= slowest + 10 ms, p99 <= slowest + 30 ms.
 *
 * Then a hung leg: booking never answers (hangRate 1); each search must come back when that leg's
 * deadline (LEG_DEADLINE_MS, 1000 ms here) cuts it, as a partial answer. Reported against the deadline.
 *   npx tsx bench/fan-out.ts        (needs PostgreSQL at TEST_DATABASE_URL or 127.0.0.1:5432)
 */
import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createReplayServer, NO_FAULTS } from '../src/replay/server.js';
import { bearer, expectStatuses, interleave, load, median, ms, pct, progress, row, scenarioMain, startBenchApp, type LoadTarget, type Row } from './support.js';

const ROUNDS = 5;
const PER_ROUND = 20;
const RATE = 10;
const DELAYS = { airbnb: 50, booking: 150, vrbo: 400 } as const;
const SLOWEST = 'vrbo';
const DEADLINE_MS = 1_000;
const HUNG_CALLS = 5;

/** A future stay starting `n` days after 2031-01-01: a new cache key per call. */
function dates(n: number): string {
  const day = (d: number) => new Date(Date.UTC(2031, 0, 1 + d)).toISOString().slice(0, 10);
  return `checkIn=${day(n)}&checkOut=${day(n + 2)}`;
}

export async function run(): Promise<Row[]> {
  const replay = createReplayServer('fixtures/replay');
  await new Promise<void>((resolve) => replay.listen(0, '127.0.0.1', resolve));
  const replayUrl = `http://127.0.0.1:${(replay.address() as AddressInfo).port}`;
  for (const [platform, delayMs] of Object.entries(DELAYS)) replay.faults.set(platform, { ...NO_FAULTS, delayMs });

  // The slowest leg's own request, as the adapter sends it, for the baseline.
  let slowest: LoadTarget | null = null;
  replay.prependListener('request', (req: IncomingMessage) => {
    if (slowest || !req.url?.startsWith(`/${SLOWEST}/`)) return;
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      slowest = { url: `${replayUrl}${req.url}`, method: req.method === 'POST' ? 'POST' : 'GET', headers: { 'content-type': 'application/json', accept: 'application/json' }, ...(body ? { body } : {}) };
    });
  });

  const app = await startBenchApp({
    config: {
      legDeadlineMs: DEADLINE_MS,
      breakerMinCalls: 1_000_000, // the hung leg must reach its deadline every time, not an open breaker
      live: {
        platforms: ['airbnb', 'booking', 'vrbo', 'google'],
        baseUrls: { airbnb: `${replayUrl}/airbnb`, booking: `${replayUrl}/booking`, vrbo: `${replayUrl}/vrbo`, google: `${replayUrl}/google` },
        airbnbApiKey: null,
        googleApiKey: 'replay-key',
        timeoutMs: 10_000, // per attempt: longer than the leg deadline, which is what must cut a hung leg
        retries: 0,
        concurrency: 8,
        accountConcurrency: 8, // one account alone: the whole pool, as before fair shares
      },
    },
  });
  try {
    const { key } = await app.newKey('live', { plan: 'enterprise', credits: 1_000_000_000 });
    let n = 0;
    const searches = (count: number): LoadTarget => ({
      url: '',
      urls: Array.from({ length: count }, () => `${app.baseUrl}/v1/search?location=Lisbon&platforms=airbnb,booking,vrbo&${dates(n++)}`),
      headers: bearer(key),
    });
    const warm = await fetch(searches(1).urls![0]!, { headers: bearer(key) });
    const warmBody = (await warm.json()) as { meta?: { platformResults: { platform: string; status: string; cached: boolean }[] } };
    const legs = warmBody.meta?.platformResults ?? [];
    if (warm.status !== 200 || legs.length !== 3 || legs.some((l) => l.status !== 'ok' || l.cached)) throw new Error(`warm-up search: ${warm.status} ${JSON.stringify(warmBody)}`);
    if (!slowest) throw new Error(`no ${SLOWEST} request reached the replay server`);
    const direct: LoadTarget = slowest;
    await load({ kind: 'paced', rate: RATE, count: 10, ...searches(10) });
    await load({ kind: 'paced', rate: RATE, count: 10, ...direct });

    const results = await interleave(ROUNDS, {
      fanOut: async () => expectStatuses(await load({ kind: 'paced', rate: RATE, count: PER_ROUND, ...searches(PER_ROUND) }), '200', 'fan-out search').latencies,
      slowestLeg: async () => expectStatuses(await load({ kind: 'paced', rate: RATE, count: PER_ROUND, ...direct }), '200', 'slowest leg alone').latencies,
    });
    const all = (name: string) => results[name]!.flat();
    const p = (name: string, q: number) => median(results[name]!.map((xs) => pct(xs, q)));
    progress(`fan-out: p50 per round ${results.fanOut!.map((xs) => pct(xs, 50).toFixed(1)).join(', ')} ms; slowest leg alone ${results.slowestLeg!.map((xs) => pct(xs, 50).toFixed(1)).join(', ')} ms`);
    const [f50, l50] = [p('fanOut', 50), p('slowestLeg', 50)];
    // p99 over every call of every round (a round's 20 calls are too few for a p99 of their own)
    const [f99, l99] = [pct(all('fanOut'), 99), pct(all('slowestLeg'), 99)];

    // A hung leg, cut by its deadline.
    replay.faults.set('booking', { ...NO_FAULTS, delayMs: DELAYS.booking, hangRate: 1 });
    const hung = await load({ kind: 'sequential', count: HUNG_CALLS, ...searches(HUNG_CALLS) });
    expectStatuses(hung, '200', 'search with a hung leg');
    const check = await fetch(searches(1).urls![0]!, { headers: bearer(key) });
    const checkBody = (await check.json()) as { meta: { partial: boolean; platformResults: { platform: string; status: string }[] } };
    const bookingStatus = checkBody.meta.platformResults.find((r) => r.platform === 'booking')?.status;
    if (!checkBody.meta.partial || bookingStatus !== 'timeout') throw new Error(`hung leg was not reported as timeout: ${JSON.stringify(checkBody.meta)}`);
    replay.faults.set('booking', { ...NO_FAULTS, delayMs: DELAYS.booking });
    const [h50, hMax] = [pct(hung.latencies, 50), Math.max(...hung.latencies)];
    progress(`fan-out: hung leg calls ${hung.latencies.map((x) => x.toFixed(1)).join(', ')} ms (deadline ${DEADLINE_MS} ms)`);

    const scenario = '4 fan-out (replay upstream)';
    const legsLabel = `legs ${DELAYS.airbnb}/${DELAYS.booking}/${DELAYS.vrbo} ms, ${RATE}/s`;
    return [
      row(scenario, `${legsLabel}, p50`, ms(f50), `slowest leg alone p50 ${ms(l50)}`, `+${ms(f50 - l50)} (goal <= +10 ms)`, f50 - l50 <= 10),
      row(scenario, `${legsLabel}, p99 (${ROUNDS * PER_ROUND} calls)`, ms(f99), `slowest leg alone p99 ${ms(l99)}`, `+${ms(f99 - l99)} (goal <= +30 ms)`, f99 - l99 <= 30),
      row(scenario, `hung booking leg, ${HUNG_CALLS} calls, p50 / max`, `${ms(h50)} / ${ms(hMax)}`, `leg deadline ${DEADLINE_MS} ms`, `max +${ms(hMax - DEADLINE_MS)} (goal <= +30 ms)`, hMax - DEADLINE_MS <= 30),
    ];
  } finally {
    await app.close();
    replay.closeAllConnections();
    await new Promise((resolve) => replay.close(resolve));
  }
}

await scenarioMain(import.meta.url, run);
