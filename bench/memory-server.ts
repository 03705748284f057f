/**
 * The service under test of the memory scenario (bench/memory.ts), alone in a process of its own:
 * the whole service on a fresh database, as startBenchApp makes it, plus a sandbox key. The
 * parent drives it over IPC: it is told the address and key once it listens, and answers each
 * `measure` with its own process.memoryUsage() read after full collections (the parent starts it
 * with --expose-gc), so the figure is this process's heap and RSS, not the load generator's.
 */
import { getHeapSpaceStatistics } from 'node:v8';
import { startBenchApp } from './support.js';

export interface MemoryServerReady {
  kind: 'ready';
  baseUrl: string;
  key: string;
}
export interface MemoryReading {
  kind: 'memory';
  usage: NodeJS.MemoryUsage;
  /** V8's heap spaces in MB, used of committed (e.g. `old_space 150.2/170.0`): where the heap's size sits. */
  spaces: string;
}
export type MemoryServerCommand = { kind: 'measure' } | { kind: 'stop' };

const SETTLE_MS = Number(process.env.BENCH_MEMORY_SETTLE_MS ?? 3_000);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc || !process.send) throw new Error('bench/memory-server.ts runs as a child of bench/memory.ts, with --expose-gc');

/** Collections until the heap stops shrinking (at most 5): what is left is what is still held. */
async function collect(): Promise<void> {
  let before = Infinity;
  for (let i = 0; i < 5; i++) {
    gc!();
    await new Promise((r) => setImmediate(r)); // let finalizers and weak-reference callbacks run
    const used = process.memoryUsage().heapUsed;
    if (used >= before * 0.999) break;
    before = used;
  }
}

/**
 * The process at rest after a phase: collected, then idle for SETTLE_MS (V8 gives the pages the
 * collections freed back to the system when the process is idle, not at once), collected again.
 */
async function settled(): Promise<NodeJS.MemoryUsage> {
  await collect();
  await new Promise((r) => setTimeout(r, SETTLE_MS));
  await collect();
  return process.memoryUsage();
}

const spaces = () =>
  getHeapSpaceStatistics()
    .filter((s) => s.space_size > 1024 * 1024)
    .map((s) => `${s.space_name.replace(/_space$/, '')} ${(s.space_used_size / 1048576).toFixed(0)}/${(s.space_size / 1048576).toFixed(0)}`)
    .join(', ');

process.env.NODE_ENV = 'production';
const app = await startBenchApp();
const { key } = await app.newKey('sandbox');
process.on('message', (command: MemoryServerCommand) => {
  if (command.kind === 'measure') void settled().then((usage) => process.send!({ kind: 'memory', usage, spaces: spaces() } satisfies MemoryReading));
  else void app.close().finally(() => process.exit(0));
});
process.send({ kind: 'ready', baseUrl: app.baseUrl, key } satisfies MemoryServerReady);
