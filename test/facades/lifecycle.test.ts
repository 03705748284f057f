import { spawn } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/cluster.js';
import { alive, baseEnv, dataFolder, gone, npm, postgresPid, reap, type Watched } from '../support/service-process.js';

/**
 * The process a user or a process manager starts is `npm start`; signals go to it (systemd,
 * docker stop) or to its whole process group (Ctrl-C). Either must stop node and the embedded
 * PostgreSQL, quietly: a clean stop prints no warning- or error-level line.
 */
let dir = '';
const pids: number[] = [];
afterAll(async () => {
  reap(pids);
  if (dir) await rm(dir, { recursive: true, force: true });
});

const nodePid = (s: Watched) => Number(s.events().find((e) => e.event === 'listening')?.pid);
const loud = (s: Watched) => s.events().filter((e) => e.level >= 40);

async function start(env: Record<string, string>): Promise<{ s: Watched; node: number; pg: number; url: string }> {
  const s = npm(['start'], env);
  pids.push(s.proc.pid!);
  await s.until(/"event":"listening"/, 60_000);
  const node = nodePid(s);
  const pg = await postgresPid(env.DATA_DIR!);
  pids.push(node, pg);
  const url = String(s.events().find((e) => e.event === 'listening')!.url);
  return { s, node, pg, url };
}

describe('npm start lifecycle', () => {
  let env: Record<string, string> = {};

  it('SIGTERM to the npm process stops node and the embedded PostgreSQL, quietly; the key is shown on the first start', async () => {
    dir = await dataFolder();
    env = baseEnv({ PORT: String(await freePort()), EMBEDDED_PG_PORT: String(await freePort()), DATA_DIR: dir, LOG_LEVEL: 'warn', WORKER_HEARTBEAT_MS: '200', WORKER_STALE_MS: '500' });
    const { s, node, pg, url } = await start(env);
    expect(s.events().filter((e) => e.event === 'sandbox_key')).toHaveLength(1);
    expect((await fetch(`${url}/healthz`)).status).toBe(200);

    process.kill(s.proc.pid!, 'SIGTERM');
    await gone(node, 30_000);
    await gone(pg, 30_000);
    await s.exited();
    expect(s.events().some((e) => e.event === 'stopped')).toBe(true);
    expect(loud(s), s.text()).toEqual([]);
    expect(s.strayLines(), s.text()).toEqual([]);
    await expect(fetch(`${url}/healthz`)).rejects.toThrow();
  }, 120_000);

  it('after a restart, Ctrl-C (SIGINT to the process group) stops everything quietly; the worker had deregistered', async () => {
    expect(dir).not.toBe('');
    const { s, node, pg } = await start(env);
    expect(s.events().filter((e) => e.event === 'sandbox_key')).toHaveLength(0);
    // A restart says where the first start kept the key and the sign-in, and prints neither.
    const demo = s.events().find((e) => e.event === 'demo_account');
    expect(demo, s.text()).toMatchObject({ email: 'demo@example.com', keyFile: path.join(dir, 'demo-sandbox-key'), signInFile: path.join(dir, 'demo-console-sign-in') });
    expect(String(demo!.msg)).toContain(path.join(dir, 'demo-sandbox-key'));
    expect(s.text()).not.toContain((await readFile(path.join(dir, 'demo-sandbox-key'), 'utf8')).trim());
    // Heartbeats run every 200 ms and release workers silent for 500 ms: a row left by the
    // previous stop would have been swept (with a warning) by now.
    await new Promise((r) => setTimeout(r, 1_500));
    process.kill(-s.proc.pid!, 'SIGINT');
    await gone(node, 30_000);
    await gone(pg, 30_000);
    await s.exited();
    expect(s.events().some((e) => e.event === 'stopped')).toBe(true);
    expect(loud(s), s.text()).toEqual([]);
    expect(s.strayLines(), s.text()).toEqual([]);
  }, 120_000);

  it('a killed npm (SIGKILL, no signal forwarded) still ends node and the database', async () => {
    expect(dir).not.toBe('');
    const { s, node, pg } = await start(env);
    process.kill(s.proc.pid!, 'SIGKILL');
    await gone(node, 30_000);
    await gone(pg, 30_000);
    expect(s.events().some((e) => e.event === 'stopping' && e.reason === 'parent process exited')).toBe(true);
  }, 120_000);

  it('a database left running by a killed node (SIGKILL) is taken over by the next start, and stopped with it', async () => {
    expect(dir).not.toBe('');
    const first = await start(env);
    process.kill(first.node, 'SIGKILL');
    await gone(first.node, 30_000);
    expect(alive(first.pg)).toBe(true); // its own session: nobody signalled it

    const next = await start(env);
    expect(next.pg).toBe(first.pg);
    expect(next.s.events().find((e) => e.event === 'database')).toMatchObject({ startedHere: false, adopted: true });
    process.kill(next.s.proc.pid!, 'SIGTERM');
    await gone(next.node, 30_000);
    await gone(first.pg, 30_000);
    // The killed worker never deregistered: releasing its jobs is the one warning, and it is right.
    expect(loud(next.s).map((e) => e.msg), next.s.text()).toEqual(['released the jobs of workers that stopped answering']);
    reap([first.s.proc.pid!]);
  }, 120_000);

  it('started in the background by a shell that then exits, node keeps serving (only npm is watched)', async () => {
    expect(dir).not.toBe('');
    const log = path.join(dir, 'background.log');
    const shell = spawn('sh', ['-c', `exec ${process.execPath} --import tsx src/app/main.ts > ${log} 2>&1 &`], { cwd: process.cwd(), env, stdio: 'ignore' });
    await new Promise((r) => shell.once('exit', r));
    let text = '';
    const until = Date.now() + 60_000;
    while (!/"event":"listening"/.test(text) && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 100));
      text = await readFile(log, 'utf8').catch(() => '');
    }
    const listening = text.split('\n').filter((l) => l.includes('"event":"listening"')).map((l) => JSON.parse(l))[0];
    expect(listening, text).toBeDefined();
    pids.push(listening.pid, await postgresPid(dir));
    await new Promise((r) => setTimeout(r, 2_500)); // past the parent watch's 1 s period, were it on
    expect((await fetch(`${listening.url}/healthz`)).status).toBe(200);
    process.kill(listening.pid, 'SIGTERM');
    await gone(listening.pid, 30_000);
  }, 120_000);

  it('NODE_ENV=production on the embedded database and in-process limits warns loudly, naming the settings', async () => {
    expect(dir).not.toBe('');
    const { s, node, pg } = await start({ ...env, NODE_ENV: 'production', CURSOR_SECRET: 'a-production-cursor-secret' });
    const warned = loud(s).filter((e) => e.event === 'not_production_ready');
    expect(warned.map((e) => e.setting), s.text()).toEqual(['DATABASE_URL', 'REDIS_URL']);
    for (const w of warned) expect(String(w.msg)).toMatch(/^NOT READY FOR PRODUCTION: /);
    process.kill(s.proc.pid!, 'SIGTERM');
    await gone(node, 30_000);
    await gone(pg, 30_000);
  }, 120_000);
});
