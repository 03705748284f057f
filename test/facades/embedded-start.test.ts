import { spawn } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/cluster.js';
import { baseEnv, dataFolder, gone, postgresPid, reap, watch, type Watched } from '../support/service-process.js';

/** `node --import tsx src/app/main.ts` is what `npm start` execs; `src/app/cli.ts` what `npm run cli` does. */
const service = (env: Record<string, string>) => watch(spawn(process.execPath, ['--import', 'tsx', 'src/app/main.ts'], { cwd: process.cwd(), env, stdio: ['ignore', 'pipe', 'pipe'] }));
const cli = (env: Record<string, string>, ...args: string[]) => watch(spawn(process.execPath, ['--import', 'tsx', 'src/app/cli.ts', ...args], { cwd: process.cwd(), env, stdio: ['ignore', 'pipe', 'pipe'] }));

const dirs: string[] = [];
const pids: number[] = [];
afterAll(async () => {
  reap(pids);
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

async function stop(s: Watched): Promise<void> {
  if (s.proc.exitCode === null) s.proc.kill('SIGTERM');
  expect(await s.exited(), s.text()).toBe(0);
}

const fatal = (s: Watched) => s.events().find((e) => e.event === 'start_failed');

describe('npm start with no environment', () => {
  let first: Watched;
  let env: Record<string, string> = {};
  let baseUrl = '';

  it('starts an embedded PostgreSQL, prints a sandbox key and the console sign-in as JSON events and serves search', async () => {
    const dataDir = await dataFolder();
    dirs.push(dataDir);
    env = baseEnv({ PORT: String(await freePort()), DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(await freePort()), LOG_LEVEL: 'warn' });
    first = service(env);
    pids.push(first.proc.pid!);
    await first.until(/"event":"console_sign_in"/, 60_000);
    pids.push(await postgresPid(dataDir));
    const events = first.events();
    expect(first.strayLines(), first.text()).toEqual([]);
    expect(events.map((e) => e.event)).toEqual(['database', 'stores', 'worker', 'listening', 'sandbox_key', 'console_sign_in']);
    const key = String(events.find((e) => e.event === 'sandbox_key')!.key);
    expect((await readFile(path.join(dataDir, 'demo-sandbox-key'), 'utf8')).trim()).toBe(key);
    baseUrl = String(events.find((e) => e.event === 'listening')!.url);

    const res = await fetch(`${baseUrl}/v1/search?location=Lisbon`, { headers: { Authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: { platform: string }[] };
    expect(body.data).toHaveLength(20);
    expect(new Set(body.data.map((p) => p.platform)).size).toBeGreaterThan(1);

    // The printed console sign-in opens a session.
    const signIn = events.find((e) => e.event === 'console_sign_in')!;
    expect(signIn.url).toBe(`${baseUrl}/console/`);
    const session = await fetch(`${baseUrl}/console/session`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email: signIn.email, password: signIn.password }) });
    expect(session.status).toBe(200);
    expect(session.headers.get('set-cookie')).toMatch(/^ads_console=.+; Path=\/console; HttpOnly; SameSite=Strict/);
  }, 90_000);

  it('a CLI with another EMBEDDED_PG_PORT finds the running database of the same DATA_DIR', async () => {
    expect(baseUrl).not.toBe('');
    const res = cli({ ...env, EMBEDDED_PG_PORT: String(await freePort()) }, 'account', 'create', '--email', 'other-port@example.com');
    expect(await res.exited(), res.text()).toBe(0);
    expect(JSON.parse(res.text())).toEqual({ accountId: expect.stringMatching(/^acct_/) });
  }, 60_000);

  it('a second start on a taken HTTP port says which setting to change, and leaves the database running', async () => {
    expect(baseUrl).not.toBe('');
    const second = service({ ...env, EMBEDDED_PG_PORT: String(await freePort()) });
    expect(await second.exited()).toBe(1);
    expect(fatal(second), second.text()).toMatchObject({ level: 60, code: 'port_in_use', hint: expect.stringContaining('PORT') });
    expect(second.strayLines(), second.text()).toEqual([]);
    expect((await fetch(`${baseUrl}/healthz`)).status).toBe(200);
  }, 60_000);

  it('another DATA_DIR on the port of a running database is refused, naming EMBEDDED_PG_PORT, and creates no cluster', async () => {
    const otherDir = await dataFolder();
    dirs.push(otherDir);
    const other = service({ ...env, DATA_DIR: otherDir, PORT: String(await freePort()) });
    expect(await other.exited()).toBe(1);
    expect(fatal(other), other.text()).toMatchObject({ code: 'embedded_port_in_use', hint: expect.stringContaining('EMBEDDED_PG_PORT') });
    await expect(readFile(path.join(otherDir, 'pg', 'PG_VERSION'))).rejects.toThrow();

    const viaCli = cli({ ...env, DATA_DIR: otherDir }, 'account', 'show', '--account', 'acct_X');
    expect(await viaCli.exited()).toBe(1);
    expect(JSON.parse(viaCli.text())).toMatchObject({ error: { code: 'embedded_port_in_use' } });
  }, 60_000);

  it('stops with SIGTERM, the database with it', async () => {
    const pg = await postgresPid(env.DATA_DIR!);
    await stop(first);
    await gone(pg, 30_000);
  }, 60_000);
});

describe('embedded PostgreSQL the postgres user cannot reach (as root)', () => {
  it.runIf(process.getuid?.() === 0)('initdb failing on a mode-700 folder is one fatal line saying what to change', async () => {
    const locked = await mkdtemp(path.join(tmpdir(), 'ads-locked-')); // mode 700, as mktemp -d makes it
    dirs.push(locked);
    await mkdir(path.join(locked, 'data'));
    await chmod(path.join(locked, 'data'), 0o755);
    const s = service(baseEnv({ PORT: String(await freePort()), DATA_DIR: path.join(locked, 'data'), EMBEDDED_PG_PORT: String(await freePort()) }));
    expect(await s.exited()).toBe(1);
    expect(fatal(s), s.text()).toMatchObject({ code: 'embedded_permission_denied', hint: expect.stringContaining('DATA_DIR') });
    expect(s.strayLines(), s.text()).toEqual([]);
  }, 60_000);
});
