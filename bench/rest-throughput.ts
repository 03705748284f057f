/**
 * 1. Throughput of a cached sandbox search through the whole REST pipeline (node:http listener,
 * trpc-to-openapi, auth against PostgreSQL, rate limit, validation, cache, envelope, output
 * validation) against a bare node:http handler answering the same bytes, both driven by
 * autocannon at the same concurrency in alternating rounds. Goal: ratio >= 0.50 (issue 29; it
 * was 0.20 for issue 15).
 *   npx tsx bench/rest-throughput.ts        (needs PostgreSQL at TEST_DATABASE_URL or 127.0.0.1:5432)
 */
import { bearer, capture, expectStatuses, interleave, load, median, perSecond, progress, row, scenarioMain, startBare, startBenchApp, type Row } from './support.js';

const ROUNDS = 5;
const DURATION_MS = 2_500;
const CONNECTIONS = 10;
const GOAL = 0.5;
export const SEARCH_PATH = '/v1/search?location=Lisbon&limit=20';

export async function run(): Promise<Row[]> {
  const app = await startBenchApp();
  try {
    const { key } = await app.newKey('sandbox');
    const url = `${app.baseUrl}${SEARCH_PATH}`;
    const sample = await capture(url, { headers: bearer(key) });
    if (sample.status !== 200) throw new Error(`search answered ${sample.status}: ${sample.body.toString()}`);
    const bare = await startBare(sample);
    try {
      const job = { kind: 'throughput', connections: CONNECTIONS, durationMs: DURATION_MS } as const;
      // warm-up of both sides (JIT, connection pools, cache)
      await load({ ...job, durationMs: 1_000, url, headers: bearer(key) });
      await load({ ...job, durationMs: 1_000, url: `${bare.url}${SEARCH_PATH}`, headers: bearer(key) });
      const results = await interleave(ROUNDS, {
        rest: async () => expectStatuses(await load({ ...job, url, headers: bearer(key) }), '200', 'REST search').rps,
        bare: async () => expectStatuses(await load({ ...job, url: `${bare.url}${SEARCH_PATH}`, headers: bearer(key) }), '200', 'bare handler').rps,
      });
      progress(`rest-throughput: REST ${results.rest!.map(Math.round).join(', ')} req/s; bare ${results.bare!.map(Math.round).join(', ')} req/s`);
      const rest = median(results.rest!);
      const baseline = median(results.bare!);
      const ratio = rest / baseline;
      return [
        row(
          '1 REST throughput',
          `cached sandbox search, ${CONNECTIONS} connections (${sample.body.length} B body)`,
          perSecond(rest),
          `bare node:http, same bytes: ${perSecond(baseline)}`,
          `${ratio.toFixed(3)} (goal >= ${GOAL})`,
          ratio >= GOAL,
        ),
      ];
    } finally {
      await bare.close();
    }
  } finally {
    await app.close();
  }
}

await scenarioMain(import.meta.url, run);
