/**
 * 7. The embedded default: `node --import tsx src/app/main.ts` with no DATABASE_URL, a fresh DATA_DIR
 * and a free EMBEDDED_PG_PORT (initdb, PostgreSQL start, migrations, demo account), timed from
 * spawn to the first 200 of /v1/search with the sandbox key it prints. Goal <= 10 s.
 *
 * Baseline, in alternating rounds: the same command with DATABASE_URL set to an already migrated
 * database on the local PostgreSQL and a key made beforehand, timed the same way: node, tsx,
 * module loading, migrations check and the first search, without the embedded database.
 *   npx tsx bench/embedded-start.ts        (needs PostgreSQL at TEST_DATABASE_URL or 127.0.0.1:5432)
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createDeps } from '../src/deps.js';
import { testConfig } from '../src/config.js';
import { createTestDatabase } from '../test/support/db.js';
import { interleave, median, progress, row, scenarioMain, type Row } from './support.js';
import { freePort } from '../test/support/cluster.js';

const ROUNDS = 2;
const GOAL_MS = 10_000;
const TIMEOUT_MS = 90_000;


/** Spawns the service, waits for its address (and printed key), then for a 200 search; milliseconds from spawn. */
async function startToFirst200(env: Record<string, string>, knownKey: string | null): Promise<{ listeningMs: number; first200Ms: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/app/main.ts'], {
    cwd: process.cwd(),
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/root', PORT: '0', NODE_ENV: 'production', CURSOR_SECRET: randomBytes(24).toString('hex'), LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  try {
    let listeningMs = 0;
    let baseUrl = '';
    let key = knownKey;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`service exited with ${child.exitCode}:\n${out}`);
      if (performance.now() - started > TIMEOUT_MS) throw new Error(`no 200 within ${TIMEOUT_MS} ms:\n${out}`);
      const listening = /listening on (http:\/\/[\d.]+:\d+)/.exec(out);
      if (listening && !baseUrl) {
        baseUrl = listening[1]!;
        listeningMs = performance.now() - started;
      }
      key ??= /"event":"sandbox_key","key":"(svc_test_\w+)"/.exec(out)?.[1] ?? null;
      if (baseUrl && key) {
        const res = await fetch(`${baseUrl}/v1/search?location=Lisbon`, { headers: { Authorization: `Bearer ${key}` } }).catch(() => null);
        const body = res ? await res.text() : '';
        if (res?.status === 200) return { listeningMs, first200Ms: performance.now() - started };
        if (res && res.status !== 503) throw new Error(`search answered ${res.status}: ${body}`);
      }
      await new Promise((r) => setTimeout(r, 10));
    }
  } finally {
    if (child.exitCode === null) child.kill('SIGTERM');
    const code = await Promise.race([exited, new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 20_000))]);
    if (code === 'timeout') child.kill('SIGKILL');
  }
}

export async function run(): Promise<Row[]> {
  // The external database and key of the baseline, made once beforehand.
  const db = await createTestDatabase();
  const deps = createDeps(testConfig(), db.url);
  const { accountId } = await deps.admin.createAccount({ email: 'bench@example.com', plan: 'free', credits: 0, verified: true, password: null });
  const { key } = await deps.admin.createKey(accountId, 'sandbox');
  await deps.close();
  const dirs: string[] = [];
  try {
    const results = await interleave(ROUNDS, {
      embedded: async () => {
        const dataDir = await mkdtemp(path.join(tmpdir(), 'ads-bench-embedded-'));
        dirs.push(dataDir);
        await chmod(dataDir, 0o755); // the embedded server runs as the postgres user and must reach its folder
        return startToFirst200({ DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(await freePort()) }, null);
      },
      external: () => startToFirst200({ DATABASE_URL: db.url, RUN_WORKER: 'true' }, key),
    });
    const show = (xs: { listeningMs: number; first200Ms: number }[]) => xs.map((x) => `${(x.first200Ms / 1000).toFixed(2)} s (listening ${(x.listeningMs / 1000).toFixed(2)} s)`).join(', ');
    progress(`embedded-start: embedded ${show(results.embedded!)}; external database ${show(results.external!)}`);
    const embedded = median(results.embedded!.map((x) => x.first200Ms));
    const external = median(results.external!.map((x) => x.first200Ms));
    return [
      row(
        '7 embedded default',
        'start to first 200 of /v1/search, fresh DATA_DIR',
        `${(embedded / 1000).toFixed(2)} s`,
        `same start on an existing database: ${(external / 1000).toFixed(2)} s`,
        `${(embedded / external).toFixed(2)}x (goal <= ${GOAL_MS / 1000} s)`,
        embedded <= GOAL_MS,
      ),
    ];
  } finally {
    for (const d of dirs) await rm(d, { recursive: true, force: true });
    await db.drop();
  }
}

await scenarioMain(import.meta.url, run);
