import path from 'node:path';
import pg from 'pg';
import { sessionDatabaseUrl, type Config } from '../config.js';
import { OperatorError } from '../domain/errors.js';
import { databaseAnswers, runMigrations as runSchemaMigrations } from '../adapters/postgres/db.js';
import { migrateQueue } from '../adapters/jobs/runner.js';
import { startEmbeddedPostgres, stopPostgres } from '../adapters/postgres/embedded/server.js';
import { clearOwner, portTaken, processAlive, readOwner, runningCluster, writeOwner } from '../adapters/postgres/embedded/files.js';

/** Any fixed number of ours: the advisory lock every process takes around its migrations. */
const MIGRATION_LOCK = 7_311_942;

/**
 * Our tables (drizzle/) and the job queue's schema, both idempotent. N API processes and M
 * workers starting together take turns on an advisory lock, so one applies and the rest find
 * nothing to do (drizzle's migrator has no lock of its own). The lock is the transaction's, held
 * by a transaction left open while the migrations run on connections of their own: its commit
 * releases it on whichever server connection a pooler gave it. A session lock (pg_advisory_lock)
 * outlived the client behind pgbouncer in transaction mode, on a server connection back in the
 * pool, and the next process to migrate waited for it forever (issue 28: the CLI's hang).
 */
export async function runMigrations(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {});
  await client.connect();
  try {
    await client.query('begin');
    // The transaction sits idle while the migrations run on connections of their own: a database
    // or role default for idle_in_transaction_session_timeout must not end it (and its lock) midway.
    await client.query('set local idle_in_transaction_session_timeout = 0');
    await client.query('select pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await runSchemaMigrations(url);
    await migrateQueue(url);
    await client.query('commit');
  } finally {
    await client.end().catch(() => undefined); // a transaction still open is rolled back, its lock released
  }
}

export interface DatabaseHandle {
  url: string;
  embedded: boolean;
  /** True when this process created the embedded cluster (its first start). */
  created: boolean;
  /** The embedded cluster's folder and port, as found or started. */
  where?: { dir: string; port: number; startedHere: boolean; adopted?: boolean };
  stop(): Promise<void>;
}

const embeddedUrl = (port: number) => `postgres://postgres:postgres@127.0.0.1:${port}/accommodation`;

/**
 * DATABASE_URL when set; otherwise the embedded PostgreSQL of DATA_DIR: the one already running
 * on that folder (found by its postmaster.pid, whatever EMBEDDED_PG_PORT says), or one started
 * here on EMBEDDED_PG_PORT, which must then be free: a database there belongs to another folder.
 * Migrations are applied either way.
 */
export async function openDatabase(config: Config): Promise<DatabaseHandle> {
  if (config.databaseUrl) {
    const sessionUrl = sessionDatabaseUrl(config, config.databaseUrl);
    const setting = config.databaseDirectUrl ? 'DATABASE_DIRECT_URL' : 'DATABASE_URL';
    await runMigrations(sessionUrl).catch((err: unknown) => {
      throw new OperatorError('database_unreachable', `${setting}: ${err instanceof Error ? err.message : String(err)}`, 'check that the database answers and the URL names an existing database and user');
    });
    return { url: config.databaseUrl, embedded: false, created: false, stop: async () => {} };
  }
  const dir = path.resolve(config.dataDir, 'pg');
  const running = await runningCluster(dir);
  if (running) {
    const url = embeddedUrl(running.port);
    if (!(await databaseAnswers(url))) {
      throw new OperatorError('embedded_start_failed', `the embedded PostgreSQL of ${dir} (process ${running.pid}, port ${running.port}) does not answer`, 'wait for it to finish starting or stopping, or stop that process');
    }
    await runMigrations(url);
    // Its owner died without stopping it (SIGKILL, a crash): this process takes it over, and
    // stops it when it stops, instead of leaving a server nobody will ever stop.
    const dataDir = path.dirname(dir);
    const owner = await readOwner(dataDir);
    if (owner && processAlive(owner.pid) && owner.pid !== process.pid) {
      return { url, embedded: true, created: false, where: { dir, port: running.port, startedHere: false }, stop: async () => {} };
    }
    await writeOwner(dataDir, { pid: process.pid, postgresPid: running.pid, port: running.port });
    return {
      url,
      embedded: true,
      created: false,
      where: { dir, port: running.port, startedHere: false, adopted: true },
      async stop() {
        await stopPostgres(running.pid);
        await clearOwner(dataDir, process.pid);
      },
    };
  }
  if (await portTaken(config.embeddedPgPort)) {
    throw new OperatorError(
      'embedded_port_in_use',
      `EMBEDDED_PG_PORT ${config.embeddedPgPort} is taken by another process (another DATA_DIR's embedded PostgreSQL?), and no database runs on ${dir}`,
      'set EMBEDDED_PG_PORT to a free port for this DATA_DIR, or set DATA_DIR to the folder of the database already running',
    );
  }
  const pg = await startEmbeddedPostgres(dir, config.embeddedPgPort);
  try {
    await runMigrations(pg.url);
  } catch (err) {
    await pg.stop();
    throw err;
  }
  return { url: pg.url, embedded: true, created: pg.created, where: { dir, port: config.embeddedPgPort, startedHere: true }, stop: pg.stop };
}
