/**
 * Async jobs: 202 answer latency, job add-to-start latency and poll latency, for 100 jobs
 * enqueued at once (live key, fake platforms declaring a slow call). Run by hand:
 *   npx tsx bench/jobs.ts        (needs PostgreSQL at TEST_DATABASE_URL or 127.0.0.1:5432)
 */
import { startTestApp } from '../test/support/app.js';
import { fakePlatforms } from '../test/support/fake-platforms.js';

const JOBS = 100;
const fake = fakePlatforms();
fake.set('airbnb', { expectedMs: 30_000 });
const app = await startTestApp({ worker: true, platforms: { live: fake.adapters } });
const { key } = await app.newKey('live', { plan: 'enterprise', credits: 1_000_000 });

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

const accepted: number[] = [];
const ids = await Promise.all(
  Array.from({ length: JOBS }, async (_, i) => {
    const started = performance.now();
    const res = await app.get(`/v1/price?platform=airbnb&listingId=${40000200 + i}&checkIn=2031-04-01&checkOut=2031-04-03`, key);
    const body = (await res.json()) as { data: { jobId: string } };
    accepted.push(performance.now() - started);
    if (res.status !== 202) throw new Error(`status ${res.status}`);
    return body.data.jobId;
  }),
);

for (;;) {
  const [row] = await app.sql<{ n: string }[]>`select count(*)::text as n from async_jobs where id = any(${ids}) and status = 'completed'`;
  if (Number(row!.n) === JOBS) break;
  await new Promise((r) => setTimeout(r, 100));
}
const rows = await app.sql<{ ms: number }[]>`select extract(epoch from (started_at - created_at)) * 1000 as ms from async_jobs where id = any(${ids})`;
const addToStart = rows.map((r) => Number(r.ms));

// One job at a time: the pick-up latency without a queue in front of it.
const single: number[] = [];
for (let i = 0; i < 20; i++) {
  const res = await app.get(`/v1/price?platform=airbnb&listingId=${40000400 + i}&checkIn=2031-04-01&checkOut=2031-04-03`, key);
  const { jobId } = ((await res.json()) as { data: { jobId: string } }).data;
  for (;;) {
    const [row] = await app.sql<{ ms: number | null }[]>`select extract(epoch from (started_at - created_at)) * 1000 as ms from async_jobs where id = ${jobId} and status = 'completed'`;
    if (row) {
      single.push(Number(row.ms));
      break;
    }
    await new Promise((r) => setTimeout(r, 5));
  }
}

const polls: number[] = [];
for (const id of ids.slice(0, 50)) {
  const started = performance.now();
  await (await app.get(`/v1/jobs/${id}`, key)).arrayBuffer();
  polls.push(performance.now() - started);
}
await app.close();

console.log(`${JOBS} jobs enqueued at once:`);
console.log(`  202 answer     p50 ${pct(accepted, 50).toFixed(1)} ms, p99 ${pct(accepted, 99).toFixed(1)} ms (all ${JOBS} concurrent)`);
console.log(`  add-to-start   p50 ${pct(addToStart, 50).toFixed(1)} ms, p99 ${pct(addToStart, 99).toFixed(1)} ms (concurrency 4)`);
console.log(`  add-to-start   p50 ${pct(single, 50).toFixed(1)} ms, p99 ${pct(single, 99).toFixed(1)} ms (one job at a time)`);
console.log(`  poll           p50 ${pct(polls, 50).toFixed(1)} ms, p99 ${pct(polls, 99).toFixed(1)} ms (sequential)`);
