/**
 * Fan-out latency: search over three live legs answering in 50, 150 and 400 ms (fake platforms,
 * no cache hits). Reports the gateway's total against the slowest leg. Run by hand:
 *   npx tsx bench/fan-out.ts        (needs PostgreSQL at TEST_DATABASE_URL or 127.0.0.1:5432)
 */
import { startTestApp } from '../test/support/app.js';
import { fakePlatforms } from '../test/support/fake-platforms.js';

const ROUNDS = 40;
const SLOWEST_MS = 400;

const fake = fakePlatforms();
fake.set('airbnb', { delayMs: 50 });
fake.set('booking', { delayMs: 150 });
fake.set('vrbo', { delayMs: SLOWEST_MS });
const app = await startTestApp({ platforms: { live: fake.adapters }, config: { legDeadlineMs: 2_000 } });
const { key } = await app.newKey('live', { plan: 'enterprise', credits: 1_000_000 });

const totals: number[] = [];
for (let i = 0; i < ROUNDS; i++) {
  const started = performance.now();
  // a different adults count each round: a new cache key, so every leg really waits
  const res = await app.get(`/v1/search?location=Lisbon&platforms=airbnb,booking,vrbo&adults=${1 + (i % 30)}&limit=${1 + Math.floor(i / 30)}`, key);
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`status ${res.status}`);
  totals.push(performance.now() - started);
}
await app.close();

totals.sort((a, b) => a - b);
const pct = (p: number) => totals[Math.min(totals.length - 1, Math.floor((p / 100) * totals.length))]!;
console.log(`fan-out over 50/150/${SLOWEST_MS} ms legs, ${ROUNDS} calls:`);
console.log(`  p50 ${pct(50).toFixed(1)} ms (slowest leg + ${(pct(50) - SLOWEST_MS).toFixed(1)} ms)`);
console.log(`  p99 ${pct(99).toFixed(1)} ms (slowest leg + ${(pct(99) - SLOWEST_MS).toFixed(1)} ms)`);
