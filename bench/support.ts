/**
 * Shared pieces of the benchmark suite (`npm run bench`, bench/run.ts): the service under test on
 * a fresh real database with production-like settings, a bare node:http baseline, the load
 * generator in a worker thread, statistics, interleaved rounds, and the result rows and table.
 *
 * Every figure is compared with a baseline measured in the same process, in rounds alternating
 * subject and baseline, and reported as the median over the rounds, so that a busy machine slows
 * both sides alike instead of skewing one.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fork } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { testConfig, type Config } from '../src/config.js';
import type { DepsOverrides } from '../src/deps.js';
import type { RateDecision, RateLimiter } from '../src/domain/ports/rate-limits.js';
import { createMemoryRateLimiter } from '../src/adapters/memory/rate-limiter.js';
import { systemClock } from '../src/adapters/system/clock.js';
import { startTestApp, type TestApp } from '../test/support/app.js';
import type { LoadJob, LoadResult, LoadTarget } from './load-worker.js';

export type { LoadTarget, LoadResult };

// ---------------------------------------------------------------------------------------------
// Result rows

export interface Row {
  scenario: string;
  figure: string;
  /** The measured figure, formatted (e.g. "2,310 req/s", "p50 1.84 ms"). */
  value: string;
  /** The baseline measured in the same run, formatted with what it is. */
  baseline: string;
  /** The comparison and the goal, e.g. "0.31 (goal >= 0.20)". */
  ratio: string;
  pass: boolean;
}

export function row(scenario: string, figure: string, value: string, baseline: string, ratio: string, pass: boolean): Row {
  return { scenario, figure, value, baseline, ratio, pass };
}

const MARKER = 'BENCH_ROWS ';

export function formatTable(rows: Row[]): string {
  const header = ['scenario', 'figure', 'measured', 'baseline (same run)', 'ratio / goal', 'result'];
  const lines = rows.map((r) => [r.scenario, r.figure, r.value, r.baseline, r.ratio, r.pass ? 'pass' : 'MISS']);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const fmt = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [fmt(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...lines.map(fmt)].join('\n');
}

/**
 * Runs a scenario when its file is the entry point: prints a table for a reader and one
 * machine-readable line for bench/run.ts. Progress goes to stderr.
 */
export async function scenarioMain(moduleUrl: string, run: () => Promise<Row[]>): Promise<void> {
  if (!process.argv[1] || pathToFileURL(process.argv[1]).href !== moduleUrl) return;
  process.env.NODE_ENV = 'production';
  const rows = await run();
  console.log(formatTable(rows));
  console.log(`${MARKER}${JSON.stringify(rows)}`);
  process.exit(0); // pools and timers of the service under test are closed, but do not wait on stragglers
}

export function parseRows(stdout: string): Row[] | null {
  const line = stdout.split('\n').find((l) => l.startsWith(MARKER));
  return line ? (JSON.parse(line.slice(MARKER.length)) as Row[]) : null;
}

export function progress(message: string): void {
  process.stderr.write(`  ${message}\n`);
}

// ---------------------------------------------------------------------------------------------
// Statistics

export function pct(xs: number[], p: number): number {
  if (xs.length === 0) return NaN;
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export const median = (xs: number[]): number => pct(xs, 50);

export const ms = (x: number): string => `${Math.abs(x) < 1 ? x.toFixed(3) : x.toFixed(2)} ms`;
export const perSecond = (x: number): string => `${Math.round(x).toLocaleString('en-US')}/s`;

/**
 * `rounds` rounds of every variant, the order alternating each round (A B, B A, A B ...), so
 * neither side always runs first after a pause. Returns each variant's results in round order.
 */
export async function interleave<T>(rounds: number, variants: Record<string, () => Promise<T>>): Promise<Record<string, T[]>> {
  const names = Object.keys(variants);
  const out: Record<string, T[]> = Object.fromEntries(names.map((n) => [n, []]));
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 === 0 ? names : [...names].reverse();
    for (const name of order) out[name]!.push(await variants[name]!());
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// The load generator (bench/load-worker.ts in a worker thread)

export function load(job: LoadJob): Promise<LoadResult> {
  const file = new URL('./load-worker.ts', import.meta.url).href;
  // Worker threads do not inherit tsx's loader: register it in the worker before importing.
  const boot = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(file)}); })`;
  return new Promise((resolve, reject) => {
    const worker = new Worker(boot, { eval: true, workerData: job });
    worker.once('message', (result: LoadResult) => {
      resolve(result);
      void worker.terminate();
    });
    worker.once('error', reject);
    worker.once('exit', (code) => code !== 0 && reject(new Error(`load worker exited with ${code}`)));
  });
}

/**
 * The same load generator in a child process: the figure is the service's own CPU time
 * (process.cpuUsage), which a worker thread of the same process would be counted in.
 */
export function loadFromChild(job: LoadJob): Promise<LoadResult> {
  const child = fork(fileURLToPath(new URL('./load-worker.ts', import.meta.url)), [], { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
  return new Promise((resolve, reject) => {
    child.once('message', (result) => resolve(result as LoadResult));
    child.once('error', reject);
    child.once('exit', (code) => code !== 0 && reject(new Error(`load process exited with ${code}`)));
    child.send(job);
  });
}

/** Fails the benchmark when a load run got anything but the expected status: a figure of errors is no figure. */
export function expectStatuses(result: LoadResult, expected: string, what: string): LoadResult {
  const other = Object.entries(result.statuses).filter(([k]) => k !== expected);
  if (other.length > 0) throw new Error(`${what}: expected only ${expected}, got ${JSON.stringify(result.statuses)}`);
  return result;
}

// ---------------------------------------------------------------------------------------------
// The service under test, and baselines

/** What every benchmark runs with: production semantics, no logging, the default worker settings. */
export function benchConfig(overrides: Partial<Config> = {}): Partial<Config> {
  const defaults = testConfig();
  return {
    production: true,
    logLevel: 'silent',
    ...overrides,
    worker: { ...defaults.worker, ...overrides.worker },
  };
}

/**
 * The real in-process token bucket, asked for a capacity no benchmark can exhaust: the limiter
 * does all its work on every call, but load runs measure successful calls, not 429s.
 */
export function unlimited(inner: RateLimiter = createMemoryRateLimiter(systemClock)): RateLimiter {
  return { take: (bucket) => inner.take(bucket, 1_000_000_000) };
}

/** A limiter that does nothing: the "without a limiter" side of the limiter's cost. */
export function noopLimiter(): RateLimiter {
  const decision: RateDecision = { allowed: true, limit: 1_000_000_000, remaining: 1_000_000_000, resetAtMs: 0, retryAfterMs: 0 };
  return { take: async () => ({ ...decision, resetAtMs: Date.now() }) };
}

export interface BenchAppOptions extends DepsOverrides {
  config?: Partial<Config>;
  worker?: boolean;
}

/** startTestApp (the whole service on a fresh real database) with production-like settings and an unexhaustible limiter. */
export function startBenchApp(options: BenchAppOptions = {}): Promise<TestApp> {
  const { config, limiter, ...rest } = options;
  return startTestApp({ ...rest, limiter: limiter ?? unlimited(), config: benchConfig(config) });
}

export interface CapturedResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** One real response of the service, to be served again by the bare baseline. */
export async function capture(url: string, init: RequestInit = {}): Promise<CapturedResponse> {
  const res = await fetch(url, init);
  const body = Buffer.from(await res.arrayBuffer());
  const headers: Record<string, string> = {};
  res.headers.forEach((v, k) => {
    if (!['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding'].includes(k)) headers[k] = v;
  });
  return { status: res.status, headers, body };
}

export interface Bare {
  url: string;
  close(): Promise<void>;
}

/**
 * The baseline server: a bare node:http handler that reads the request and answers the captured
 * bytes with the same headers. Nothing else: no routing, no auth, no JSON work.
 */
export async function startBare(response: CapturedResponse): Promise<Bare> {
  const server: Server = createServer((req: IncomingMessage, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(response.status, { ...response.headers, 'content-length': response.body.length });
      res.end(response.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export function bearer(key: string): Record<string, string> {
  return { Authorization: `Bearer ${key}` };
}

/** The MCP tools/call a headless agent sends (API key as bearer, JSON response). */
export function mcpToolCall(baseUrl: string, key: string, name: string, args: Record<string, unknown>): LoadTarget {
  return {
    url: `${baseUrl}/mcp`,
    method: 'POST',
    headers: { ...bearer(key), 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
  };
}

/** The same call as a 2026-07-28 (modern era) client sends it: no initialize, the version in `_meta` and the headers. */
export function mcpModernToolCall(baseUrl: string, key: string, name: string, args: Record<string, unknown>): LoadTarget {
  const version = '2026-07-28';
  const meta = { 'io.modelcontextprotocol/protocolVersion': version, 'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1.0.0' }, 'io.modelcontextprotocol/clientCapabilities': {} };
  return {
    url: `${baseUrl}/mcp`,
    method: 'POST',
    headers: { ...bearer(key), 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'MCP-Protocol-Version': version, 'Mcp-Method': 'tools/call', 'Mcp-Name': name },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args, _meta: meta } }),
  };
}
