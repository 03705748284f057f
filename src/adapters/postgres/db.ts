import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import * as schema from './schema.js';

export type Db = NodePgDatabase<typeof schema>;

export interface Database {
  db: Db;
  pool: pg.Pool;
  close(): Promise<void>;
}

const MIGRATIONS = fileURLToPath(new URL('../../../drizzle', import.meta.url));

/**
 * The service's pool (node-postgres, the driver graphile-worker uses too). postgres.js 3.4.9 was
 * the first choice, but it crashes the process when PostgreSQL terminates a backend under load
 * (an uncatchable TypeError in its nextWrite; porsager/postgres#1154, #1208, fixes unmerged),
 * which the billing-under-faults suite reproduced. Here a dropped connection is an error on the
 * query that used it, and the pool logs and replaces it.
 */
export function connect(url: string, max = 10, onError: (err: Error) => void = () => {}, pooled = false, extra: Pick<pg.PoolConfig, 'query_timeout' | 'keepAlive'> = {}): Database {
  const pool = new pg.Pool({
    ...extra,
    connectionString: url,
    max,
    application_name: 'accommodation-data-service',
    // During an outage a call waits at most this long for a connection, then answers 503.
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    // A statement waiting on a row lock (a debit behind another one) gives up after LOCK_TIMEOUT
    // (a retryable 503, nothing charged), and while it waits the server checks every second that
    // this process is still connected: if it was killed, the statement is cancelled instead of
    // committing a debit after the kill (PostgreSQL 14+).
    // A transaction left open by a frozen process (SIGSTOP, a stalled VM) is ended by the server
    // after IDLE_IN_TRANSACTION, so it cannot hold an account's row, and every billed call of
    // that account, for minutes (issue 23).
    // Behind a pooler in transaction mode (`pooled`) there is no session to set them on, and
    // pgbouncer refuses the `options` start-up parameter: the pooler sets them on its server
    // connections instead (README, "Behind pgbouncer": connect_query).
    ...(pooled ? {} : { options: SESSION_OPTIONS }),
  });
  // pool.end() resolves before the server has seen every connection go: once we close, a
  // connection ended by the server is one we let go, not one lost.
  let closing = false;
  const report = (err: Error) => void (closing || onError(err));
  pool.on('error', report);
  // A client checked out for a transaction has no pool listener: one of its own keeps a server-side
  // disconnect an error of that transaction instead of an unhandled 'error' event.
  pool.on('connect', (client) => client.on('error', report));
  return {
    db: drizzle(pool, { schema }),
    pool,
    close: () => {
      closing = true;
      return pool.end();
    },
  };
}

export const CONNECT_TIMEOUT_MS = 5_000;
export const LOCK_TIMEOUT_MS = 5_000;
export const CONNECTION_CHECK_MS = 1_000;
export const IDLE_IN_TRANSACTION_MS = 10_000;
/** The server settings above as start-up options (and, with pgbouncer, its connect_query). */
export const SESSION_OPTIONS = `-c lock_timeout=${LOCK_TIMEOUT_MS} -c client_connection_check_interval=${CONNECTION_CHECK_MS} -c idle_in_transaction_session_timeout=${IDLE_IN_TRANSACTION_MS}`;

/** Applies the SQL migrations in drizzle/ (idempotent), on a connection of its own. */
export async function runMigrations(url: string): Promise<void> {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  pool.on('error', () => {});
  try {
    await migrate(drizzle(pool), { migrationsFolder: MIGRATIONS });
  } finally {
    await pool.end();
  }
}

/** True when a database answers at `url` within two seconds. */
export async function databaseAnswers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}
