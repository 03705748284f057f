import path from 'node:path';
import type { Config } from './config.js';
import { databaseAnswers, runMigrations as runSchemaMigrations } from './adapters/postgres/db.js';
import { migrateQueue } from './adapters/jobs/runner.js';

/** Our tables (drizzle/) and the job queue's schema, both idempotent. */
async function runMigrations(url: string): Promise<void> {
  await runSchemaMigrations(url);
  await migrateQueue(url);
}
import { startEmbeddedPostgres } from './adapters/postgres/embedded.js';

export interface DatabaseHandle {
  url: string;
  embedded: boolean;
  /** True when this process created the embedded cluster (its first start). */
  created: boolean;
  stop(): Promise<void>;
}

/**
 * DATABASE_URL when set; otherwise the embedded PostgreSQL in DATA_DIR, started here unless
 * another process of ours already runs it. Migrations are applied either way.
 */
export async function openDatabase(config: Config, log: (line: string) => void): Promise<DatabaseHandle> {
  if (config.databaseUrl) {
    await runMigrations(config.databaseUrl);
    return { url: config.databaseUrl, embedded: false, created: false, stop: async () => {} };
  }
  const runningUrl = `postgres://postgres:postgres@127.0.0.1:${config.embeddedPgPort}/accommodation`;
  if (await databaseAnswers(runningUrl)) {
    await runMigrations(runningUrl);
    return { url: runningUrl, embedded: true, created: false, stop: async () => {} };
  }
  const pg = await startEmbeddedPostgres(path.join(config.dataDir, 'pg'), config.embeddedPgPort, log);
  await runMigrations(pg.url);
  return { url: pg.url, embedded: true, created: pg.created, stop: pg.stop };
}
