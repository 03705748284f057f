/**
 * 2. Throughput of a cached live search that commits its charge (live key, fake platforms, cache
 * warm: every call is served from cache and still debits 20 credits in one PostgreSQL
 * transaction) against that debit transaction alone: the ledger's `post` in a loop at the same
 * concurrency, on the service's own pool. Goal: ratio >= 0.70 (issue 15).
 *   npx tsx bench/ledger.ts        (needs PostgreSQL at TEST_DATABASE_URL or 127.0.0.1:5432)
 */
import { randomUUID } from 'node:crypto';
import type { Ledger } from '../src/domain/ports/billing.js';
import { fakePlatforms } from '../test/support/fake-platforms.js';
import { bearer, expectStatuses, interleave, load, median, perSecond, progress, row, scenarioMain, startBenchApp, type Row } from './support.js';

const ROUNDS = 5;
const DURATION_MS = 2_500;
const CONNECTIONS = 10;
const GOAL = 0.7;
const PATH = '/v1/search?location=Lisbon&limit=20';

/** `concurrency` loops posting debits for `durationMs`; completed posts per second. */
async function postLoop(ledger: Ledger, accountId: string, amount: number, concurrency: number, durationMs: number): Promise<number> {
  const until = performance.now() + durationMs;
  const run = randomUUID();
  let n = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async (_, lane) => {
      for (let i = 0; performance.now() < until; i++) {
        const posted = await ledger.post({ accountId, entryKey: `bench:${run}:${lane}:${i}`, amount: -amount, reason: 'search' });
        if (!posted || posted.duplicate) throw new Error('baseline debit did not post');
        n++;
      }
    }),
  );
  return n / (durationMs / 1000);
}

export async function run(): Promise<Row[]> {
  const fake = fakePlatforms();
  const app = await startBenchApp({ platforms: { live: fake.adapters } });
  try {
    const { key } = await app.newKey('live', { plan: 'enterprise', credits: 1_000_000_000 });
    const { accountId: baselineAccount } = await app.newKey('live', { plan: 'enterprise', credits: 1_000_000_000 });
    const url = `${app.baseUrl}${PATH}`;
    const first = await app.get(PATH, key);
    const body = (await first.json()) as { meta: { creditsCharged: number } };
    if (first.status !== 200) throw new Error(`live search answered ${first.status}`);
    const upstreamCalls = fake.calls();
    const check = (await (await app.get(PATH, key)).json()) as { meta: { creditsCharged: number; cached: boolean } };
    if (!check.meta.cached || check.meta.creditsCharged !== body.meta.creditsCharged) throw new Error('second call was not a billed cache hit');
    const credits = check.meta.creditsCharged;

    const job = { kind: 'throughput', connections: CONNECTIONS, durationMs: DURATION_MS, url, headers: bearer(key) } as const;
    await load({ ...job, durationMs: 1_000 });
    await postLoop(app.deps.ledger, baselineAccount, credits, CONNECTIONS, 1_000);
    const results = await interleave(ROUNDS, {
      search: async () => expectStatuses(await load(job), '200', 'live cached search').rps,
      ledger: () => postLoop(app.deps.ledger, baselineAccount, credits, CONNECTIONS, DURATION_MS),
    });
    if (fake.calls() !== upstreamCalls) throw new Error('cache was not warm: the fake platforms were called during the run');
    progress(`ledger: search ${results.search!.map(Math.round).join(', ')} req/s; ledger.post ${results.ledger!.map(Math.round).join(', ')} /s`);
    const search = median(results.search!);
    const baseline = median(results.ledger!);
    const ratio = search / baseline;
    return [
      row(
        '2 billed cached search',
        `live key, cache warm, ${credits} credits debited per call, ${CONNECTIONS} connections`,
        perSecond(search),
        `ledger.post alone, ${CONNECTIONS} at once: ${perSecond(baseline)}`,
        `${ratio.toFixed(3)} (goal >= ${GOAL})`,
        ratio >= GOAL,
      ),
    ];
  } finally {
    await app.close();
  }
}

await scenarioMain(import.meta.url, run);
