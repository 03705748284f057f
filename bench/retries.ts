/**
 * 8. Safe retries and long polls (issue 17), sequential requests in alternating rounds:
 *  - the cost of an Idempotency-Key on a cached live search that commits its charge (claim, then
 *    answer and ledger row in one transaction) against the same call without a key;
 *  - a replay of a stored answer against running the call;
 *  - a long poll's wake-up after its job ends (UPDATE -> trigger NOTIFY -> LISTEN -> HTTP answer)
 *    against a bare NOTIFY -> LISTEN round trip between two connections.
 *   npx tsx bench/retries.ts        (needs PostgreSQL at TEST_DATABASE_URL or 127.0.0.1:5432)
 */
import postgres from 'postgres';
import { fakePlatforms } from '../test/support/fake-platforms.js';
import { bearer, interleave, median, ms, pct, progress, row, scenarioMain, startBenchApp, type Row } from './support.js';

const ROUNDS = 5;
const PER_ROUND = 60;
const WAKES_PER_ROUND = 15;
const PATH = '/v1/search?location=Lisbon&platforms=airbnb,booking';

async function timed(n: number, call: (i: number) => Promise<Response>, expected: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const res = await call(i);
    await res.arrayBuffer();
    out.push(performance.now() - t0);
    if (res.status !== expected) throw new Error(`expected ${expected}, got ${res.status}`);
  }
  return out;
}

export async function run(): Promise<Row[]> {
  const fake = fakePlatforms();
  const app = await startBenchApp({ platforms: { live: fake.adapters } });
  const sql = postgres(app.db.url, { max: 3, onnotice: () => {} });
  try {
    const { key } = await app.newKey('live', { plan: 'enterprise', credits: 1_000_000_000 });
    const headers = bearer(key);
    const get = (extra: Record<string, string> = {}) => fetch(`${app.baseUrl}${PATH}`, { headers: { ...headers, ...extra } });
    let n = 0;
    await timed(20, () => get(), 200); // warm-up; fills the cache
    const replayKey = `replay-${Date.now()}`;
    await get({ 'Idempotency-Key': replayKey });
    const calls = await interleave(ROUNDS, {
      plain: () => timed(PER_ROUND, () => get(), 200),
      keyed: () => timed(PER_ROUND, () => get({ 'Idempotency-Key': `k-${n++}` }), 200),
      replay: () => timed(PER_ROUND, () => get({ 'Idempotency-Key': replayKey }), 200),
    });
    const p50 = (name: string) => median(calls[name]!.map((xs) => pct(xs, 50)));
    progress(`retries: p50 plain ${p50('plain').toFixed(2)}, keyed ${p50('keyed').toFixed(2)}, replay ${p50('replay').toFixed(2)} ms`);

    // Long polls: jobs that stay pending (no worker), each ended from outside while a request waits on it.
    fake.set('airbnb', { expectedMs: 30_000 });
    let listing = 40_100_000;
    const wake = async (): Promise<number[]> => {
      const out: number[] = [];
      for (let i = 0; i < WAKES_PER_ROUND; i++) {
        const accepted = await fetch(`${app.baseUrl}/v1/price?platform=airbnb&listingId=${listing++}&checkIn=2031-02-01&checkOut=2031-02-03`, { headers });
        const { data } = (await accepted.json()) as { data: { jobId: string } };
        if (accepted.status !== 202) throw new Error(`expected 202, got ${accepted.status}`);
        const answer = fetch(`${app.baseUrl}/v1/jobs/${data.jobId}`, { headers: { ...headers, Prefer: 'wait=20' } });
        await new Promise((r) => setTimeout(r, 50)); // the request is listening by now
        const t0 = performance.now();
        await sql`update async_jobs set status = 'failed', error = ${sql.json({ code: 'upstream_unavailable', message: 'bench', requestId: 'req_bench', retryable: true, docUrl: '' })} where id = ${data.jobId}`;
        const res = await answer;
        await res.arrayBuffer();
        out.push(performance.now() - t0);
      }
      return out;
    };
    let notified: (() => void) | null = null;
    await sql.listen('bench_wake', () => notified?.());
    const roundTrip = async (): Promise<number[]> => {
      const out: number[] = [];
      for (let i = 0; i < WAKES_PER_ROUND; i++) {
        const t0 = performance.now();
        await new Promise<void>((resolve) => {
          notified = resolve;
          void sql.notify('bench_wake', String(i));
        });
        out.push(performance.now() - t0);
      }
      return out;
    };
    const wakes = await interleave(ROUNDS, { wake, roundTrip });
    const wakeP50 = median(wakes.wake!.map((xs) => pct(xs, 50)));
    const notifyP50 = median(wakes.roundTrip!.map((xs) => pct(xs, 50)));
    progress(`retries: long-poll wake p50 ${wakeP50.toFixed(2)} ms, NOTIFY round trip p50 ${notifyP50.toFixed(2)} ms`);

    const scenario = '8 retries and long polls';
    return [
      row(scenario, 'billed cached search with a new Idempotency-Key, p50', ms(p50('keyed')), `same call without a key ${ms(p50('plain'))}`, `+${ms(p50('keyed') - p50('plain'))} (goal <= +3 ms)`, p50('keyed') - p50('plain') <= 3),
      row(scenario, 'replay of a stored answer, p50', ms(p50('replay')), `running the call ${ms(p50('keyed'))}`, `ratio ${(p50('replay') / p50('keyed')).toFixed(2)} (goal <= 1)`, p50('replay') <= p50('keyed')),
      row(scenario, 'long poll answered after its job ends, p50', ms(wakeP50), `NOTIFY round trip ${ms(notifyP50)}`, `+${ms(wakeP50 - notifyP50)} (goal <= +10 ms)`, wakeP50 - notifyP50 <= 10),
    ];
  } finally {
    fake.reset();
    await sql.end();
    await app.close();
  }
}

await scenarioMain(import.meta.url, run);
