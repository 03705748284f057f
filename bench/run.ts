/**
 * `npm run bench`: every scenario of the benchmark suite, each in a process of its own (so one
 * scenario's pools, caches and JIT state do not leak into the next), then one table. Each figure
 * is compared with a baseline measured in the same run, in alternating rounds (see bench/support.ts).
 *
 *   npm run bench                     all scenarios (about 4 to 5 minutes on 2 cores)
 *   npm run bench -- fan-out jobs     only these
 *
 * Needs PostgreSQL on 127.0.0.1:5432 (or TEST_DATABASE_URL) and Redis on 6379 (or REDIS_URL);
 * scale-out starts its own Redis Cluster and pgbouncer (redis-server, redis-cli, pgbouncer on the PATH).
 */
import { spawn } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { formatTable, parseRows, pct, type Row } from './support.js';

const SCENARIOS = ['rest-throughput', 'cpu-per-search', 'ledger', 'overhead', 'faces-throughput', 'memory', 'fan-out', 'rate-limit', 'jobs', 'embedded-start', 'retries', 'fair-share', 'scale-out'];

function runScenario(name: string): Promise<{ rows: Row[] | null; error: string | null; seconds: number }> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', `bench/${name}.ts`], {
      env: { ...process.env, NODE_ENV: 'production' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
      process.stderr.write(c);
    });
    child.on('exit', (code) => {
      const seconds = (performance.now() - started) / 1000;
      const rows = parseRows(stdout);
      resolve({ rows, error: rows ? null : `exit ${code}: ${(stderr || stdout).trim().split('\n').slice(-3).join(' / ')}`, seconds });
    });
  });
}

const chosen = process.argv.slice(2).length > 0 ? process.argv.slice(2) : SCENARIOS;
const unknown = chosen.filter((s) => !SCENARIOS.includes(s));
if (unknown.length > 0) {
  console.error(`unknown scenario(s): ${unknown.join(', ')}; known: ${SCENARIOS.join(', ')}`);
  process.exit(2);
}

/**
 * How late a 2 ms timer fires, p50 and p99 over 1 s: on an idle machine a few hundredths of a
 * millisecond; when other processes keep the cores busy, the scheduler's delay, which every
 * wake-up of the client, the service and PostgreSQL pays during the latency scenarios.
 */
async function wakeUpLateness(): Promise<string> {
  const late: number[] = [];
  for (let i = 0; i < 300; i++) {
    const t = performance.now();
    await new Promise((r) => setTimeout(r, 2));
    late.push(performance.now() - t - 2);
  }
  return `timer wake-up lateness p50 ${pct(late, 50).toFixed(2)} ms, p99 ${pct(late, 99).toFixed(2)} ms`;
}

const load0 = loadavg()[0]!;
const noise0 = await wakeUpLateness();
const started = performance.now();
const rows: Row[] = [];
let failed = false;
for (const name of chosen) {
  process.stderr.write(`[bench] ${name}\n`);
  const result = await runScenario(name);
  process.stderr.write(`[bench] ${name}: ${result.seconds.toFixed(1)} s\n`);
  if (result.rows) rows.push(...result.rows);
  else {
    failed = true;
    rows.push({ scenario: name, figure: 'did not complete', value: '-', baseline: '-', ratio: result.error ?? '', pass: false });
  }
}

const seconds = (performance.now() - started) / 1000;
const noise1 = await wakeUpLateness();
console.log(`\nAccommodation Data Service benchmarks, ${new Date().toISOString()}, node ${process.version}, ${cpus().length} cores, ${seconds.toFixed(0)} s`);
console.log(`Machine at start: load average ${load0.toFixed(2)}, ${noise0}; at end: load average ${loadavg()[0]!.toFixed(2)}, ${noise1}.`);
console.log('Each baseline was measured in the same run, in rounds alternating with its subject; figures are medians over rounds.\n');
console.log(formatTable(rows));
const misses = rows.filter((r) => !r.pass).length;
console.log(`\n${rows.length - misses} pass, ${misses} miss`);
process.exit(failed ? 1 : 0);
