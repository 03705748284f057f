import { execFile, spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeps } from '../../src/deps.js';
import { testConfig } from '../../src/config.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { freePort } from '../support/cluster.js';
import { baseEnv, reap, watch, type Watched } from '../support/service-process.js';

/**
 * Production runs compiled JavaScript: `npm run build` emits dist/, and `node dist/app/main.js`,
 * `node dist/app/worker.js` and `node dist/app/migrate.js` run with no TypeScript loader.
 */
const run = promisify(execFile);
let db: TestDatabase;
const pids: number[] = [];
beforeAll(async () => {
  db = await createTestDatabase();
  await run('npm', ['run', 'build'], { cwd: process.cwd(), timeout: 240_000 });
}, 300_000);
afterAll(async () => {
  reap(pids);
  await db?.drop();
});

const node = (file: string, env: Record<string, string>) => {
  const w = watch(spawn(process.execPath, [file], { cwd: process.cwd(), env, stdio: ['ignore', 'pipe', 'pipe'] }));
  pids.push(w.proc.pid!);
  return w;
};

async function loadsNoTypeScript(w: Watched): Promise<void> {
  const cmdline = (await readFile(`/proc/${w.proc.pid}/cmdline`, 'utf8')).split('\0');
  expect(cmdline.join(' ')).not.toMatch(/tsx|ts-node|--import|--loader/);
  const maps = await readFile(`/proc/${w.proc.pid}/maps`, 'utf8');
  expect(maps).not.toMatch(/esbuild/); // tsx transpiles through an esbuild service
}

describe('npm run build, then node dist/*.js', () => {
  it('migrate, API and worker run from dist/ and stop quietly', async () => {
    // Production as the README describes it: an external PostgreSQL and a shared Redis (without
    // either the API warns at start, which the last step of test/facades/lifecycle.test.ts checks).
    const env = baseEnv({ DATABASE_URL: db.url, REDIS_URL: 'redis://127.0.0.1:6379', NODE_ENV: 'production', CURSOR_SECRET: 'a-production-cursor-secret', LOG_LEVEL: 'warn' });
    const migrate = node('dist/app/migrate.js', env);
    expect(await migrate.exited(), migrate.text()).toBe(0);
    expect(JSON.parse(migrate.text())).toEqual({ migrated: true, database: 'DATABASE_URL' });

    const deps = createDeps(testConfig(), db.url);
    const { accountId } = await deps.admin.createAccount({ email: 'prod@example.com', plan: 'free', credits: 0, verified: true, password: null });
    const { key } = await deps.admin.createKey(accountId, 'sandbox');
    await deps.close();

    const api = node('dist/app/main.js', { ...env, PORT: String(await freePort()), RUN_WORKER: 'false' });
    const worker = node('dist/app/worker.js', env);
    await api.until(/"event":"listening"/, 60_000);
    await worker.until(/"event":"worker"/, 60_000);
    await loadsNoTypeScript(api);
    await loadsNoTypeScript(worker);
    const url = String(api.events().find((e) => e.event === 'listening')!.url);
    const res = await fetch(`${url}/v1/search?location=Lisbon`, { headers: { Authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);

    for (const w of [api, worker]) {
      w.proc.kill('SIGTERM');
      expect(await w.exited(), w.text()).toBe(0);
      expect(w.events().filter((e) => e.level >= 40), w.text()).toEqual([]);
      expect(w.strayLines(), w.text()).toEqual([]);
    }
  }, 120_000);

  it('npm run start:prod without NODE_ENV runs as production: without CURSOR_SECRET it refuses, the fatal line naming the setting with a hint', async () => {
    const env = baseEnv({ DATABASE_URL: db.url, PORT: String(await freePort()), LOG_LEVEL: 'warn' });
    const prod = watch(spawn('npm', ['run', '-s', 'start:prod'], { cwd: process.cwd(), env, stdio: ['ignore', 'pipe', 'pipe'] }));
    pids.push(prod.proc.pid!);
    expect(await prod.exited(), prod.text()).toBe(1);
    const fatal = prod.events().find((e) => e.event === 'start_failed');
    expect(fatal, prod.text()).toMatchObject({ code: 'invalid_setting', msg: expect.stringContaining('CURSOR_SECRET') });
    expect(String(fatal!.hint)).toMatch(/CURSOR_SECRET/);
  }, 60_000);

  it('every invalid setting refused at start carries a hint', async () => {
    const bad = node('dist/app/main.js', baseEnv({ DATABASE_URL: db.url, PORT: 'eighty', LOG_LEVEL: 'warn' }));
    expect(await bad.exited(), bad.text()).toBe(1);
    const fatal = bad.events().find((e) => e.event === 'start_failed');
    expect(fatal, bad.text()).toMatchObject({ code: 'invalid_setting', msg: expect.stringContaining('PORT') });
    expect(typeof fatal!.hint).toBe('string');
  }, 60_000);
});
