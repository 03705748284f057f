import { spawn, type ChildProcess } from 'node:child_process';
import { chmod, mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** A service started the way an operator starts it (`npm start`, `node dist/app/main.js`), watched from outside. */
export interface Watched {
  proc: ChildProcess;
  text(): string;
  /** The JSON log lines printed so far. */
  events(): { level: number; event?: string; msg: string; [k: string]: unknown }[];
  /** Lines that are neither JSON nor npm's own script header. */
  strayLines(): string[];
  until(pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray>;
  exited(): Promise<number | null>;
}

export function watch(proc: ChildProcess): Watched {
  let out = '';
  proc.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  proc.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  const exit = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  const lines = () => out.split('\n').filter((l) => l.trim() !== '');
  return {
    proc,
    text: () => out,
    events: () => lines().filter((l) => l.startsWith('{')).map((l) => JSON.parse(l)),
    strayLines: () => lines().filter((l) => !l.startsWith('{') && !l.startsWith('> ') && !l.startsWith('npm warn')),
    exited: () => exit,
    until(pattern, timeoutMs) {
      return new Promise((resolve, reject) => {
        const started = Date.now();
        const poll = setInterval(() => {
          const m = out.match(pattern);
          if (m) {
            clearInterval(poll);
            resolve(m);
          } else if (proc.exitCode !== null || Date.now() - started > timeoutMs) {
            clearInterval(poll);
            reject(new Error(`no ${pattern} (exit ${proc.exitCode}); output:\n${out}`));
          }
        }, 50);
      });
    },
  };
}

/** A temp folder the postgres system user can traverse (the embedded server runs as it under root). */
export async function dataFolder(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'ads-ops-'));
  await chmod(dir, 0o755);
  return dir;
}

export function baseEnv(extra: Record<string, string>): Record<string, string> {
  return { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/root', HOST: '127.0.0.1', ...extra };
}

/**
 * `npm <args>` in its own process group, as a terminal runs a foreground job: Ctrl-C is then
 * `process.kill(-pid, 'SIGINT')`, reaching npm, node and anything else in the group.
 */
export function npm(args: string[], env: Record<string, string>): Watched {
  return watch(spawn('npm', args, { cwd: process.cwd(), env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] }));
}

/** The embedded PostgreSQL's process id, as it records it in its data folder. */
export async function postgresPid(dataDir: string): Promise<number> {
  return Number((await readFile(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8')).split('\n')[0]);
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Resolves once `pid` is gone; rejects after `timeoutMs`. */
export async function gone(pid: number, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (alive(pid)) {
    if (Date.now() > until) throw new Error(`process ${pid} still running after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Kills whatever a failed test left behind, by process id only. */
export function reap(pids: number[]): void {
  for (const pid of pids) if (pid > 0 && alive(pid)) process.kill(pid, 'SIGKILL');
}
