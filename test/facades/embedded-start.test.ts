import { spawn, type ChildProcess } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/cluster.js';

/** Collects a child's output; `until` resolves once everything printed so far matches. */
function watch(child: ChildProcess) {
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  return {
    text: () => out,
    until(pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray> {
      return new Promise((resolve, reject) => {
        const started = Date.now();
        const poll = setInterval(() => {
          const m = out.match(pattern);
          if (m) {
            clearInterval(poll);
            resolve(m);
          } else if (child.exitCode !== null || Date.now() - started > timeoutMs) {
            clearInterval(poll);
            reject(new Error(`no ${pattern} (exit ${child.exitCode}); output:\n${out}`));
          }
        }, 50);
      });
    },
  };
}

let child: ChildProcess | undefined;
let dataDir = '';
afterAll(async () => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('npm start with no environment', () => {
  it('starts an embedded PostgreSQL, prints a sandbox key and serves search', async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'ads-embedded-'));
    await chmod(dataDir, 0o755); // the embedded server runs as the postgres user and must reach its folder
    const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/root', PORT: '0', DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(await freePort()), LOG_LEVEL: 'warn' };
    child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], { cwd: process.cwd(), env, stdio: ['ignore', 'pipe', 'pipe'] });
    const output = watch(child);
    const [, baseUrl] = await output.until(/listening on (http:\/\/[\d.]+:\d+)/, 60_000);
    const [, key] = await output.until(/Sandbox key \(demo account\): (svc_test_\w+)/, 10_000);
    expect((await readFile(path.join(dataDir, 'demo-sandbox-key'), 'utf8')).trim()).toBe(key);

    const res = await fetch(`${baseUrl}/v1/search?location=Lisbon`, { headers: { Authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: { platform: string }[] };
    expect(body.data).toHaveLength(20);
    expect(new Set(body.data.map((p) => p.platform)).size).toBeGreaterThan(1);

    const exited = new Promise<number | null>((resolve) => child!.on('exit', resolve));
    child.kill('SIGTERM');
    const code = await exited;
    expect(code, output.text()).toBe(0);
  }, 90_000);
});
