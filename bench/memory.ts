/**
 * 9. Resident memory of one API process under cached searches: 1,000 distinct queries (warmed
 * once), then three phases of N cached searches each (N = 100,000 by default; BENCH_MEMORY_SEARCHES
 * to change it), RSS and heap read after each phase with a forced collection when node runs with
 * --expose-gc. Leak check: no growth between the second and the third phase (the caches are
 * bounded and full by then), within 5% of RSS.
 *   npx tsx bench/memory.ts        (about 6 minutes at 100,000; needs PostgreSQL)
 */
import { bearer, expectStatuses, load, progress, row, scenarioMain, startBenchApp, type Row } from './support.js';

const QUERIES = 1_000;
const SEARCHES = Number(process.env.BENCH_MEMORY_SEARCHES ?? 100_000);
const CONNECTIONS = 10;
const TOLERANCE = 0.05;

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

function settledMemory(): NodeJS.MemoryUsage {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage();
}

export async function run(): Promise<Row[]> {
  const app = await startBenchApp();
  try {
    const { key } = await app.newKey('sandbox');
    // minGuestRating is part of each leg's cache key: 1,000 distinct cached queries
    const urls = Array.from({ length: QUERIES }, (_, i) => `${app.baseUrl}/v1/search?location=Lisbon&limit=20&minGuestRating=${(i / 100).toFixed(2)}`);
    const job = { kind: 'throughput', connections: CONNECTIONS, durationMs: 0, url: urls[0]!, urls, headers: bearer(key) } as const;
    expectStatuses(await load({ ...job, amount: QUERIES }), '200', 'warm-up');
    const phases: NodeJS.MemoryUsage[] = [];
    for (let phase = 1; phase <= 3; phase++) {
      const result = expectStatuses(await load({ ...job, amount: SEARCHES }), '200', `phase ${phase}`);
      phases.push(settledMemory());
      progress(`memory: phase ${phase}, ${result.requests} searches at ${Math.round(result.rps)}/s, rss ${mb(phases.at(-1)!.rss)}, heap ${mb(phases.at(-1)!.heapUsed)}`);
    }
    const [, second, third] = phases as [NodeJS.MemoryUsage, NodeJS.MemoryUsage, NodeJS.MemoryUsage];
    const growth = (third.rss - second.rss) / second.rss;
    const gc = (globalThis as { gc?: unknown }).gc ? 'after gc' : 'no --expose-gc';
    return [
      row(
        '9 memory',
        `RSS after ${(3 * SEARCHES).toLocaleString('en-US')} cached searches over ${QUERIES.toLocaleString('en-US')} queries (${gc})`,
        mb(third.rss),
        `after ${(2 * SEARCHES).toLocaleString('en-US')}: ${mb(second.rss)} (heap ${mb(second.heapUsed)} -> ${mb(third.heapUsed)})`,
        `${(100 * growth).toFixed(1)}% growth (goal <= ${100 * TOLERANCE}%)`,
        growth <= TOLERANCE,
      ),
    ];
  } finally {
    await app.close();
  }
}

await scenarioMain(import.meta.url, run);
