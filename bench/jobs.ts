/**
 * 6. Async jobs (live key, fake platforms declaring a 30 s call, so a price call answers 202 and
 * the in-process graphile-worker runs it), at a realistic rate and as a burst:
 *
 * - 202 answer: paced at 20 calls per second, against the enqueue transaction alone (the credit
 *   hold, the job row and its queue entry in one enqueue_jobs call, `deps.jobs.enqueue`) at the same
 *   pace, in alternating rounds;
 *   then 100 calls at once. Goal p99 <= 20 ms paced, <= 50 ms for the burst.
 * - add-to-start (the job row's created_at to started_at, set when a worker begins it): for the
 *   paced jobs, against a PostgreSQL LISTEN/NOTIFY round trip on the same database (what the
 *   worker's pick-up rests on); then for the burst (4 worker slots; one account's jobs run at most
 *   JOB_ACCOUNT_CONCURRENCY at once, so most of it is queueing). Goal p99 <= 50 ms paced, <= 250 ms for the burst.
 * - poll (GET /v1/jobs/{id} of completed jobs) at 100 per second, against a bare node:http
 *   handler answering the same bytes, in alternating rounds. Goal p50 <= 5 ms.
 *   npx tsx bench/jobs.ts        (needs PostgreSQL at TEST_DATABASE_URL or 127.0.0.1:5432)
 */
import postgres from 'postgres';
import type { JobRecord } from '../src/domain/ports/jobs.js';
import type { TestApp } from '../test/support/app.js';
import { fakePlatforms } from '../test/support/fake-platforms.js';
import { bearer, capture, expectStatuses, interleave, load, median, ms, pct, progress, row, scenarioMain, startBare, startBenchApp, type Row } from './support.js';

const ROUNDS = 5;
const RATE = 20;
const PER_ROUND = 20;
const BURST = 100;
const POLL_RATE = 100;
const POLLS_PER_ROUND = 100;
const GOAL_202_P99 = 20;
const GOAL_START_P99 = 50;
// A burst of 100 at once (issue 29): the 202s are written in a few batched statements, and the jobs
// wait for the account's JOB_ACCOUNT_CONCURRENCY queues on 4 worker slots.
const GOAL_BURST_202_P99 = 50;
const GOAL_BURST_START_P99 = 250;
const GOAL_POLL_P50 = 5;

let listing = 40_000_200;
const priceUrl = (baseUrl: string) => `${baseUrl}/v1/price?platform=airbnb&listingId=${listing++}&checkIn=2031-04-01&checkOut=2031-04-03`;

/**
 * Waits until every job completed, then reads them. The wait is one query per 50 ms tick: asking
 * for each job on every tick (100 reads per tick on the service's pool) loaded the very database
 * and process whose pick-up the figure measures.
 */
async function waitStarted(app: TestApp, accountId: string, ids: string[]): Promise<JobRecord[]> {
  const until = Date.now() + 60_000;
  for (;;) {
    const rows = await app.sql<{ status: string; error: unknown }[]>`select status, error from async_jobs where id = any(${ids})`;
    if (rows.length === ids.length && rows.every((j) => j.status === 'completed')) break;
    const failed = rows.find((j) => j.status === 'failed');
    if (failed) throw new Error(`a job failed: ${JSON.stringify(failed.error)}`);
    if (Date.now() > until) throw new Error('jobs did not complete within 60 s');
    await new Promise((r) => setTimeout(r, 50));
  }
  return (await Promise.all(ids.map((id) => app.deps.jobs.find(id, { accountId, keyEnv: 'live' }, new Date())))) as JobRecord[];
}

const addToStart = (jobs: JobRecord[]) => jobs.map((j) => j.startedAt!.getTime() - j.createdAt.getTime());

export async function run(): Promise<Row[]> {
  const fake = fakePlatforms();
  fake.set('airbnb', { expectedMs: 30_000 });
  const app = await startBenchApp({ worker: true, platforms: { live: fake.adapters } });
  const listen = postgres(app.db.url, { max: 2, onnotice: () => {} });
  try {
    const { key, accountId } = await app.newKey('live', { plan: 'enterprise', credits: 1_000_000_000 });
    const accept = async (count: number, rate: number) => {
      const res = expectStatuses(await load({ kind: 'paced', rate, count, bodies: true, url: '', urls: Array.from({ length: count }, () => priceUrl(app.baseUrl)), headers: bearer(key) }), '202', 'price call');
      return { latencies: res.latencies, ids: res.bodies!.map((b) => (JSON.parse(b) as { data: { jobId: string } }).data.jobId) };
    };

    // Warm-up, and a template of the job row the service writes, for the enqueue-alone baseline.
    const warm = await accept(5, RATE);
    const [template] = await waitStarted(app, accountId, warm.ids);
    const enqueueAlone = async (count: number, rate: number): Promise<number[]> => {
      const out: number[] = [];
      const start = performance.now();
      await Promise.all(
        Array.from({ length: count }, async (_, i) => {
          const wait = start + (i * 1000) / rate - performance.now();
          if (wait > 0) await new Promise((r) => setTimeout(r, wait));
          const now = new Date();
          const input = { ...(template!.input as Record<string, unknown>), listingId: String(listing++) };
          const t0 = performance.now();
          await app.deps.jobs.enqueue({
            id: app.deps.ids.jobId(),
            accountId,
            keyId: template!.keyId,
            keyEnv: 'live',
            procedure: template!.procedure,
            input,
            dedupKey: `bench:${input.listingId}`,
            platforms: template!.platforms,
            estimatedSeconds: template!.estimatedSeconds,
            now,
            expiresAt: new Date(now.getTime() + 86_400_000),
            hold: { credits: Math.max(1, template!.creditsCharged), ttlMs: 86_400_000 },
          });
          out.push(performance.now() - t0);
        }),
      );
      return out;
    };

    // LISTEN/NOTIFY round trips, paced like the jobs.
    let notified: (() => void) | null = null;
    await listen.listen('bench_pickup', () => notified?.());
    const notifyRoundTrips = async (count: number, rate: number): Promise<number[]> => {
      const out: number[] = [];
      for (let i = 0; i < count; i++) {
        const t0 = performance.now();
        await new Promise<void>((resolve) => {
          notified = resolve;
          void listen.notify('bench_pickup', String(i));
        });
        out.push(performance.now() - t0);
        await new Promise((r) => setTimeout(r, Math.max(0, 1000 / rate - (performance.now() - t0))));
      }
      return out;
    };

    // Paced: 202s and enqueue-alone in alternating rounds; LISTEN/NOTIFY rounds in between.
    const pacedIds: string[] = [];
    const paced = await interleave(ROUNDS, {
      accepted: async () => {
        const r = await accept(PER_ROUND, RATE);
        pacedIds.push(...r.ids);
        return r.latencies;
      },
      enqueue: () => enqueueAlone(PER_ROUND, RATE),
      notify: () => notifyRoundTrips(PER_ROUND, RATE),
    });
    const pacedStart = addToStart(await waitStarted(app, accountId, pacedIds));

    // Burst: 100 at once.
    const burst = await accept(BURST, 1_000_000);
    const burstStart = addToStart(await waitStarted(app, accountId, burst.ids));

    // Polls of completed jobs against a bare handler answering the same bytes.
    const pollUrls = pacedIds.map((id) => `${app.baseUrl}/v1/jobs/${id}`);
    const sample = await capture(pollUrls[0]!, { headers: bearer(key) });
    if (sample.status !== 200) throw new Error(`poll answered ${sample.status}`);
    const bare = await startBare(sample);
    let polls: Record<string, number[][]>;
    try {
      const bareUrl = `${bare.url}/v1/jobs/${pacedIds[0]}`;
      await load({ kind: 'paced', rate: POLL_RATE, count: 100, url: '', urls: pollUrls, headers: bearer(key) });
      polls = await interleave(ROUNDS, {
        poll: async () => expectStatuses(await load({ kind: 'paced', rate: POLL_RATE, count: POLLS_PER_ROUND, url: '', urls: pollUrls, headers: bearer(key) }), '200', 'poll').latencies,
        bare: async () => expectStatuses(await load({ kind: 'paced', rate: POLL_RATE, count: POLLS_PER_ROUND, url: bareUrl, headers: bearer(key) }), '200', 'bare').latencies,
      });
    } finally {
      await bare.close();
    }

    const all = (xs: number[][]) => xs.flat();
    progress(`jobs: 202 p99 per round ${paced.accepted!.map((xs) => pct(xs, 99).toFixed(1)).join(', ')} ms; enqueue alone p99 ${paced.enqueue!.map((xs) => pct(xs, 99).toFixed(1)).join(', ')} ms`);
    progress(`jobs: add-to-start paced p50 ${pct(pacedStart, 50)} p99 ${pct(pacedStart, 99)} ms; burst p50 ${pct(burstStart, 50)} p99 ${pct(burstStart, 99)} ms; NOTIFY p50 ${pct(all(paced.notify!), 50).toFixed(2)} ms`);
    progress(`jobs: poll p50 per round ${polls.poll!.map((xs) => pct(xs, 50).toFixed(2)).join(', ')} ms; bare ${polls.bare!.map((xs) => pct(xs, 50).toFixed(2)).join(', ')} ms`);

    const a99 = pct(all(paced.accepted!), 99);
    const e99 = pct(all(paced.enqueue!), 99);
    const b99 = pct(burst.latencies, 99);
    const s99 = pct(pacedStart, 99);
    const sb99 = pct(burstStart, 99);
    const n99 = pct(all(paced.notify!), 99);
    const p50 = median(polls.poll!.map((xs) => pct(xs, 50)));
    const bare50 = median(polls.bare!.map((xs) => pct(xs, 50)));
    const n = ROUNDS * PER_ROUND;
    const scenario = '6 async jobs';
    return [
      row(scenario, `202 answer at ${RATE}/s, p99 (${n} calls)`, ms(a99), `enqueue transaction alone p99 ${ms(e99)}`, `${(a99 / e99).toFixed(2)}x (goal p99 <= ${GOAL_202_P99} ms)`, a99 <= GOAL_202_P99),
      row(scenario, `202 answer, ${BURST} at once, p99`, ms(b99), `same, at ${RATE}/s: ${ms(a99)}`, `${(b99 / a99).toFixed(2)}x (goal p99 <= ${GOAL_BURST_202_P99} ms)`, b99 <= GOAL_BURST_202_P99),
      row(scenario, `add-to-start at ${RATE}/s, p99 (${n} jobs)`, ms(s99), `LISTEN/NOTIFY round trip p99 ${ms(n99)}`, `${(s99 / n99).toFixed(1)}x (goal p99 <= ${GOAL_START_P99} ms)`, s99 <= GOAL_START_P99),
      row(scenario, `add-to-start, ${BURST} at once (4 workers), p99`, ms(sb99), `same, at ${RATE}/s: ${ms(s99)}`, `${(sb99 / s99).toFixed(1)}x (goal p99 <= ${GOAL_BURST_START_P99} ms)`, sb99 <= GOAL_BURST_START_P99),
      row(scenario, `poll at ${POLL_RATE}/s, p50`, ms(p50), `bare node:http p50 ${ms(bare50)}`, `+${ms(p50 - bare50)} (goal p50 <= ${GOAL_POLL_P50} ms)`, p50 <= GOAL_POLL_P50),
    ];
  } finally {
    await listen.end({ timeout: 1 });
    await app.close();
  }
}

await scenarioMain(import.meta.url, run);
