import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { runMigrations } from '../../src/adapters/postgres/db.js';
import { migrateQueue } from '../../src/adapters/jobs/runner.js';

/** The server tests create their databases on; CI and developer machines run one on 5432. */
export const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/** A fresh, migrated database per test file (conventions rule 15), dropped in teardown. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `ads_test_${randomBytes(6).toString('hex')}`;
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  await admin.end();
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  await runMigrations(url.toString());
  await migrateQueue(url.toString());
  return {
    url: url.toString(),
    async drop() {
      const sql = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
      await sql.unsafe(`drop database if exists ${name} with (force)`);
      await sql.end();
    },
  };
}
