/**
 * 12. Fair share between accounts (issue 23), through the replay upstream with airbnb answering
 * in 500 ms. Account A keeps 10 batches of 50 unknown airbnb ids in flight (500 free legs, far
 * more than the platform's 8 connections); account B searches airbnb, one call at a time, with
 * new dates each time so its leg really goes upstream. Figure: B's p50 during the flood against
 * B's p50 alone, measured in the same run; goal within 2x, every one of B's legs `ok`.
 *
 * Then upstream spend: 50 parallel four-platform searches (worst case 20 credits each) on a
 * balance of 100; figure: platform requests per paid call, against one call's requests alone
 * (goal: no more; before credit holds, every call asked all four platforms). And the hold's own
 * cost: one reserve plus one release, against a `select 1` round trip.
 *
 * Then the job queue: account A submits 60 async searches (sandbox:async, 1.5 s each), then B
 * submits one; figure: B's job time (submit to completed, polled every 100 ms) against B's job
 * alone. Goal within 2x. Four worker slots, at most JOB_ACCOUNT_CONCURRENCY (2) of A's at once.
 *   npx tsx bench/fair-share.ts        (needs PostgreSQL at TEST_DATABASE_URL or 127.0.0.1:5432)
 */
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { createReplayServer, NO_FAULTS } from '../src/replay/server.js';
import type { TestApp } from '../test/support/app.js';
import { bearer, ms, pct, progress, row, scenarioMain, startBenchApp, type Row } from './support.js';

const DELAY_MS = 500;
const VICTIM_CALLS = 10;
const FLOOD_BATCHES = 10;

/** A future stay starting `n` days after 2032-01-01: a new cache key per call. */
function dates(n: number): string {
  const day = (d: number) => new Date(Date.UTC(2032, 0, 1 + d)).toISOString().slice(0, 10);
  return `checkIn=${day(n)}&checkOut=${day(n + 2)}`;
}

export async function run(): Promise<Row[]> {
  const replay = createReplayServer('fixtures/replay');
  await new Promise<void>((resolve) => replay.listen(0, '127.0.0.1', resolve));
  const replayUrl = `http://127.0.0.1:${(replay.address() as AddressInfo).port}`;
  replay.faults.set('airbnb', { ...NO_FAULTS, delayMs: DELAY_MS });
  const app = await startBenchApp({
    config: {
      asyncThresholdMs: 600_000, // both accounts answer inline: this scenario measures connections, not jobs
      live: {
        platforms: ['airbnb'],
        baseUrls: { airbnb: `${replayUrl}/airbnb`, booking: `${replayUrl}/booking`, vrbo: `${replayUrl}/vrbo`, google: `${replayUrl}/google` },
        airbnbApiKey: null,
        googleApiKey: null,
        timeoutMs: 10_000,
        retries: 0,
        concurrency: 8, // the defaults (UPSTREAM_CONCURRENCY, UPSTREAM_ACCOUNT_CONCURRENCY)
        accountConcurrency: 6,
      },
    },
  });
  try {
    const a = await app.newKey('live', { plan: 'enterprise', credits: 1_000_000 });
    const b = await app.newKey('live', { plan: 'enterprise', credits: 1_000_000 });
    let n = 0;
    let serial = 0;
    const victim = async (): Promise<{ ms: number; status: string }> => {
      const started = performance.now();
      const res = await fetch(`${app.baseUrl}/v1/search?location=Lisbon&platforms=airbnb&${dates(n++)}`, { headers: bearer(b.key) });
      const body = (await res.json()) as { meta?: { platformResults: { status: string }[] } };
      return { ms: performance.now() - started, status: `${res.status} ${body.meta?.platformResults[0]?.status ?? 'none'}` };
    };
    const series = async (): Promise<{ ms: number[]; statuses: string[] }> => {
      const out = { ms: [] as number[], statuses: [] as string[] };
      for (let i = 0; i < VICTIM_CALLS; i++) {
        const r = await victim();
        out.ms.push(r.ms), out.statuses.push(r.status);
      }
      return out;
    };
    await victim(); // warm-up
    const alone = await series();

    let flooding = true;
    const batch = async (): Promise<void> => {
      while (flooding) {
        const ids = Array.from({ length: 50 }, () => 80_000_000 + ++serial).join(',');
        await (await fetch(`${app.baseUrl}/v1/availability?platform=airbnb&listingIds=${ids}&startDate=2032-06-07&endDate=2032-06-13`, { headers: bearer(a.key) })).text();
      }
    };
    const flood = Array.from({ length: FLOOD_BATCHES }, batch);
    await new Promise((r) => setTimeout(r, DELAY_MS * 2)); // every batch's legs are queued
    const during = await series();
    flooding = false;
    await Promise.all(flood);

    const [p50Alone, p50During] = [pct(alone.ms, 50), pct(during.ms, 50)];
    const allOk = [...alone.statuses, ...during.statuses].every((s) => s === '200 ok');
    progress(`fair-share: B alone ${alone.ms.map((x) => x.toFixed(0)).join(', ')} ms; during A's flood ${during.ms.map((x) => x.toFixed(0)).join(', ')} ms; statuses ${[...new Set(during.statuses)].join(', ')}`);
    const jobs = await jobFairness();
    const spend = await upstreamSpend(app, replay);
    const hold = await holdCost(app);
    const scenario = '12 fair share (replay upstream)';
    return [
      row(scenario, "B's job with A's 60 jobs queued (4 worker slots)", ms(jobs.during), `B's job alone ${ms(jobs.alone)}`, `${(jobs.during / jobs.alone).toFixed(2)}x (goal <= 2x)`, jobs.during <= 2 * jobs.alone),
      row(scenario, '50 parallel searches on 100 credits: platform requests per paid call', `${spend.requests} requests / ${spend.paid} paid = ${(spend.requests / spend.paid).toFixed(1)}`, `one call alone: ${spend.perCall} requests`, `${(spend.requests / spend.paid / spend.perCall).toFixed(2)}x (goal <= 1x)`, spend.requests <= spend.paid * spend.perCall),
      row(scenario, 'credit hold: reserve + release, p50', ms(hold.hold), `select 1 p50 ${ms(hold.select)}`, `${(hold.hold / hold.select).toFixed(1)}x a round trip (cached calls: none)`, true),
      row(scenario, `B's airbnb search p50 during A's ${FLOOD_BATCHES} x 50-id batches (${DELAY_MS} ms legs)`, ms(p50During), `B alone p50 ${ms(p50Alone)}`, `${(p50During / p50Alone).toFixed(2)}x (goal <= 2x, every leg ok: ${allOk})`, p50During <= 2 * p50Alone && allOk),
    ];
  } finally {
    await app.close();
    replay.closeAllConnections();
    await new Promise((resolve) => replay.close(resolve));
  }
}

async function upstreamSpend(app: TestApp, replay: ReturnType<typeof createReplayServer>): Promise<{ requests: number; paid: number; perCall: number }> {
  let requests = 0;
  replay.on('request', () => void requests++);
  replay.faults.set('airbnb', { ...NO_FAULTS, delayMs: 200 });
  let day = 0;
  const search = (key: string) => {
    day += 3;
    return fetch(`${app.baseUrl}/v1/search?location=Lisbon&platforms=airbnb&${dates(400 + day)}`, { headers: bearer(key) });
  };
  const probe = await app.newKey('live', { plan: 'enterprise', credits: 1_000 });
  await (await search(probe.key)).text();
  const perCall = requests;
  requests = 0;
  const poor = await app.newKey('live', { plan: 'enterprise', credits: 100 });
  const statuses = await Promise.all(Array.from({ length: 50 }, async () => (await search(poor.key)).status));
  // Only airbnb is live in this app: a search's worst case is 5 credits, so 100 pay for 20 calls.
  return { requests, paid: statuses.filter((s) => s === 200).length, perCall };
}

/** B's job time alone and behind A's 60 jobs, on an app of its own with the worker running. */
async function jobFairness(): Promise<{ alone: number; during: number }> {
  const app = await startBenchApp({ worker: true, config: { worker: { concurrency: 4, pollIntervalMs: 2_000, heartbeatMs: 5_000, staleAfterMs: 30_000, maxAttempts: 3 } } });
  try {
    const a = await app.newKey('sandbox');
    const b = await app.newKey('sandbox');
    let n = 0;
    const submit = async (key: string): Promise<string> => {
      const res = await fetch(`${app.baseUrl}/v1/search?location=sandbox:async&platforms=airbnb&limit=${1 + (n++ % 100)}&${dates(n)}`, { headers: bearer(key) });
      if (res.status !== 202) throw new Error(`expected 202, got ${res.status}`);
      return ((await res.json()) as { data: { jobId: string } }).data.jobId;
    };
    const timeJob = async (): Promise<number> => {
      const started = performance.now();
      const id = await submit(b.key);
      for (;;) {
        const body = (await (await fetch(`${app.baseUrl}/v1/jobs/${id}`, { headers: bearer(b.key) })).json()) as { data: { status: string } };
        if (body.data.status === 'completed') return performance.now() - started;
        if (body.data.status === 'failed') throw new Error('B job failed');
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    const alone = await timeJob();
    for (let i = 0; i < 60; i++) await submit(a.key);
    const during = await timeJob();
    progress(`fair-share: B's job alone ${alone.toFixed(0)} ms, with A's 60 jobs queued ${during.toFixed(0)} ms`);
    return { alone, during };
  } finally {
    await app.close();
  }
}

async function holdCost(app: TestApp): Promise<{ hold: number; select: number }> {
  const { accountId } = await app.newKey('live', { plan: 'enterprise', credits: 1_000 });
  const { ledger, db } = app.deps;
  const holds: number[] = [];
  const selects: number[] = [];
  for (let i = 0; i < 300; i++) {
    let t = performance.now();
    await ledger.reserve(accountId, `bench:${i}`, 5, 60_000);
    await ledger.release(`bench:${i}`);
    holds.push(performance.now() - t);
    t = performance.now();
    await db.execute(sql`select 1`);
    selects.push(performance.now() - t);
  }
  return { hold: pct(holds, 50), select: pct(selects, 50) };
}

await scenarioMain(import.meta.url, run);
