import { execFile } from 'node:child_process';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { createConnection } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The server running on a data folder, as PostgreSQL itself records it in `postmaster.pid`. */
export interface RunningCluster {
  pid: number;
  port: number;
}

/**
 * PostgreSQL writes `postmaster.pid` in its data folder while it runs (line 1 the process id,
 * line 4 the port) and removes it on a clean stop; that record, not the configured port, says
 * which database belongs to this DATA_DIR. A file left by a crash names a dead process.
 */
export async function runningCluster(pgDir: string): Promise<RunningCluster | null> {
  const text = await readFile(path.join(pgDir, 'postmaster.pid'), 'utf8').catch(() => null);
  if (!text) return null;
  const lines = text.split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isSafeInteger(pid) || pid <= 0 || !Number.isSafeInteger(port)) return null;
  return processAlive(pid) ? { pid, port } : null;
}

export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** True when something accepts TCP connections on 127.0.0.1:port. */
export function portTaken(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.setTimeout(1_000);
    const done = (taken: boolean) => {
      socket.destroy();
      resolve(taken);
    };
    socket.once('connect', () => done(true));
    socket.once('timeout', () => done(false));
    socket.once('error', () => done(false));
  });
}

export interface RunAs {
  uid?: number;
  gid?: number;
}

/**
 * initdb and postgres refuse to run as root, so as root they run as the `postgres` system user
 * (created once if missing), which then owns the data folder.
 */
export async function postgresUser(): Promise<RunAs> {
  if (process.getuid?.() !== 0) return {};
  const ids = async () => ({
    uid: Number((await run('id', ['-u', 'postgres'])).stdout.trim()),
    gid: Number((await run('id', ['-g', 'postgres'])).stdout.trim()),
  });
  try {
    return await ids();
  } catch {
    await run('groupadd', ['--system', 'postgres']).catch(() => undefined);
    await run('useradd', ['--system', '--gid', 'postgres', '--no-create-home', '--shell', '/usr/sbin/nologin', 'postgres']);
    return ids();
  }
}

/** Which process of ours started the embedded database of a DATA_DIR, and so stops it. */
export interface Owner {
  pid: number;
  postgresPid: number;
  port: number;
}

const ownerFile = (dataDir: string) => path.join(dataDir, 'embedded-owner.json');

export async function readOwner(dataDir: string): Promise<Owner | null> {
  const text = await readFile(ownerFile(dataDir), 'utf8').catch(() => null);
  try {
    return text ? (JSON.parse(text) as Owner) : null;
  } catch {
    return null;
  }
}

export function writeOwner(dataDir: string, owner: Owner): Promise<void> {
  return writeFile(ownerFile(dataDir), `${JSON.stringify(owner)}\n`);
}

/** Removes the record if it still names `pid` (another process may have taken over since). */
export async function clearOwner(dataDir: string, pid: number): Promise<void> {
  if ((await readOwner(dataDir))?.pid === pid) await rm(ownerFile(dataDir), { force: true });
}
