import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { CONNECTION_CHECK_MS, IDLE_IN_TRANSACTION_MS, LOCK_TIMEOUT_MS } from '../../src/adapters/postgres/db.js';
import { freePort } from './cluster.js';
import { ADMIN_URL } from './db.js';

export interface Pgbouncer {
  port: number;
  /** `directUrl` (a database on the shared PostgreSQL) as reached through this pgbouncer. */
  urlFor(directUrl: string): string;
  /** What pgbouncer logged (its stderr), for a failing test's message. */
  output(): string;
  stop(): Promise<void>;
}

/** Debian installs it in /usr/sbin, which a non-root PATH may lack; `.ci/run` installs the package. */
function binary(): string {
  try {
    return execFileSync('sh', ['-c', 'command -v pgbouncer'], { encoding: 'utf8' }).trim();
  } catch {
    if (existsSync('/usr/sbin/pgbouncer')) return '/usr/sbin/pgbouncer';
    throw new Error('pgbouncer is not installed (apt-get install pgbouncer; .ci/run does it)');
  }
}

/** max_prepared_statements appeared in 1.21 (Debian bookworm ships 1.18, where the limit is 0 by nature). */
function supportsPreparedStatementLimit(bin: string): boolean {
  const [major = 0, minor = 0] = (/PgBouncer (\d+)\.(\d+)/.exec(execFileSync(bin, ['--version'], { encoding: 'utf8' }))?.slice(1) ?? []).map(Number);
  return major > 1 || (major === 1 && minor >= 21);
}

/**
 * Our own pgbouncer in transaction mode in front of the shared PostgreSQL (any database name, by
 * the `*` entry), strict as a production one: a pool of 5 server connections so a session
 * assumption shows, no prepared statements kept across transactions, and the `options` start-up
 * parameter refused (pgbouncer's default). The service's server settings come from connect_query,
 * as the README tells operators. pgbouncer refuses to run as root, so as root (CI) it drops to `nobody`.
 */
export async function startPgbouncer(): Promise<Pgbouncer> {
  const bin = binary();
  const upstream = new URL(ADMIN_URL);
  const user = decodeURIComponent(upstream.username || 'postgres');
  const port = await freePort();
  const dir = await mkdtemp(path.join(tmpdir(), 'pgbouncer-'));
  await chmod(dir, 0o755); // readable by `nobody` after the drop
  const settings = `SET lock_timeout = ${LOCK_TIMEOUT_MS}; SET client_connection_check_interval = ${CONNECTION_CHECK_MS}; SET idle_in_transaction_session_timeout = ${IDLE_IN_TRANSACTION_MS}`;
  const ini = [
    '[databases]',
    `* = host=${upstream.hostname} port=${upstream.port || 5432} connect_query='${settings}'`,
    '[pgbouncer]',
    'listen_addr = 127.0.0.1',
    `listen_port = ${port}`,
    'unix_socket_dir =',
    'auth_type = trust',
    `auth_file = ${path.join(dir, 'users.txt')}`,
    'pool_mode = transaction',
    'default_pool_size = 5',
    'max_client_conn = 500',
    // Its stderr is kept for a failing test's message: the errors, not a line per connection.
    'log_connections = 0',
    'log_disconnections = 0',
    ...(supportsPreparedStatementLimit(bin) ? ['max_prepared_statements = 0'] : []),
  ].join('\n');
  await writeFile(path.join(dir, 'pgbouncer.ini'), `${ini}\n`, { mode: 0o644 });
  await writeFile(path.join(dir, 'users.txt'), `"${user}" ""\n`, { mode: 0o644 });
  const asRoot = process.getuid?.() === 0;
  const proc = spawn(bin, [...(asRoot ? ['-u', 'nobody'] : []), path.join(dir, 'pgbouncer.ini')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let out = '';
  proc.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise((resolve) => proc.once('exit', resolve));

  const url = new URL(ADMIN_URL);
  url.port = String(port);
  url.hostname = '127.0.0.1';
  const urlFor = (directUrl: string) => {
    const through = new URL(directUrl);
    through.hostname = '127.0.0.1';
    through.port = String(port);
    return through.toString();
  };
  const stop = async () => {
    if (proc.exitCode === null && proc.signalCode === null) {
      proc.kill('SIGTERM');
      await exited;
    }
    await rm(dir, { recursive: true, force: true });
  };

  for (let attempt = 0; ; attempt++) {
    const client = new pg.Client({ connectionString: url.toString(), connectionTimeoutMillis: 1_000 });
    client.on('error', () => {});
    try {
      await client.connect();
      await client.query('select 1');
      await client.end();
      break;
    } catch (err) {
      await client.end().catch(() => {});
      if (proc.exitCode !== null || attempt >= 50) {
        await stop();
        throw new Error(`pgbouncer did not start: ${String(err)}\n${out}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return { port, urlFor, output: () => out, stop };
}
