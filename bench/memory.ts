/**
 * 9. Memory of the API process alone under cached searches. The service runs in a child process
 * of its own (bench/memory-server.ts, with --expose-gc) and the load comes from this process, so
 * the figures are the server's own heap and RSS, not the load generator's. 1,000 distinct queries
 * (warmed once), then three phases of N cached searches each (N = 100,000 by default;
 * BENCH_MEMORY_SEARCHES to change it); after each phase the server collects its garbage until the
 * heap stops shrinking and reports process.memoryUsage(). Leak check: between the second and the
 * third phase (the caches are bounded and full by then) RSS grows at most 5% and the heap at most 2%.
 *   npx tsx bench/memory.ts        (about 3 minutes at 100,000 on 2 busy cores; needs PostgreSQL)
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { bearer, expectStatuses, load, progress, row, scenarioMain, type Row } from './support.js';
import type { MemoryReading, MemoryServerCommand, MemoryServerReady } from './memory-server.js';

const QUERIES = 1_000;
const SEARCHES = Number(process.env.BENCH_MEMORY_SEARCHES ?? 100_000);
const CONNECTIONS = 10;
const RSS_TOLERANCE = 0.05;
const HEAP_TOLERANCE = 0.02;

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const percent = (x: number) => `${x >= 0 ? '+' : ''}${(100 * x).toFixed(1)}%`;

function next<T>(child: ChildProcess, kind: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: { kind: string }) => {
      if (message.kind !== kind) return;
      child.off('message', onMessage);
      child.off('exit', onExit);
      resolve(message as T);
    };
    const onExit = (code: number | null) => reject(new Error(`memory server exited with ${code}`));
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

export async function run(): Promise<Row[]> {
  const server = fork(fileURLToPath(new URL('./memory-server.ts', import.meta.url)), [], {
    execArgv: ['--expose-gc', '--import', 'tsx'],
    env: { ...process.env, NODE_ENV: 'production' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const send = (command: MemoryServerCommand) => server.send(command);
  try {
    const { baseUrl, key } = await next<MemoryServerReady>(server, 'ready');
    const measure = async () => {
      const reading = next<MemoryReading>(server, 'memory');
      send({ kind: 'measure' });
      const { usage, spaces } = await reading;
      progress(`memory: server heap spaces (MB used/committed) ${spaces}`);
      return usage;
    };
    // minGuestRating is part of each leg's cache key: 1,000 distinct cached queries
    const urls = Array.from({ length: QUERIES }, (_, i) => `${baseUrl}/v1/search?location=Lisbon&limit=20&minGuestRating=${(i / 100).toFixed(2)}`);
    const job = { kind: 'throughput', connections: CONNECTIONS, durationMs: 0, url: urls[0]!, urls, headers: bearer(key) } as const;
    expectStatuses(await load({ ...job, amount: QUERIES }), '200', 'warm-up');
    const warm = await measure();
    progress(`memory: after warm-up (${QUERIES} queries), server rss ${mb(warm.rss)}, heap ${mb(warm.heapUsed)}`);
    const phases: NodeJS.MemoryUsage[] = [];
    for (let phase = 1; phase <= 3; phase++) {
      const result = expectStatuses(await load({ ...job, amount: SEARCHES }), '200', `phase ${phase}`);
      phases.push(await measure());
      const m = phases.at(-1)!;
      progress(`memory: phase ${phase}, ${result.requests} searches at ${Math.round(result.rps)}/s, server rss ${mb(m.rss)}, heap ${mb(m.heapUsed)} of ${mb(m.heapTotal)} (external ${mb(m.external)}, array buffers ${mb(m.arrayBuffers)})`);
    }
    const [, second, third] = phases as [NodeJS.MemoryUsage, NodeJS.MemoryUsage, NodeJS.MemoryUsage];
    const rssGrowth = (third.rss - second.rss) / second.rss;
    const heapGrowth = (third.heapUsed - second.heapUsed) / second.heapUsed;
    const total = (n: number) => (n * SEARCHES).toLocaleString('en-US');
    const figure = (what: string) => `Server ${what} after ${total(3)} cached searches over ${QUERIES.toLocaleString('en-US')} queries (own process, after gc)`;
    return [
      row('9 memory', figure('RSS'), mb(third.rss), `after ${total(2)}: ${mb(second.rss)}`, `${percent(rssGrowth)} (goal <= +${100 * RSS_TOLERANCE}%)`, rssGrowth <= RSS_TOLERANCE),
      row('9 memory', figure('heap used'), mb(third.heapUsed), `after ${total(2)}: ${mb(second.heapUsed)}`, `${percent(heapGrowth)} (goal <= +${100 * HEAP_TOLERANCE}%)`, heapGrowth <= HEAP_TOLERANCE),
    ];
  } finally {
    if (server.connected) {
      const exited = new Promise((resolve) => server.once('exit', resolve));
      send({ kind: 'stop' });
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
    }
    server.kill();
  }
}

await scenarioMain(import.meta.url, run);
