import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import { drizzle, type PostgresJsDatabase } from 'drizzle-orm/postgres-js';
import { migrate } from 'drizzle-orm/postgres-js/migrator';
import * as schema from './schema.js';

export type Db = PostgresJsDatabase<typeof schema>;

export interface Database {
  db: Db;
  sql: postgres.Sql;
  close(): Promise<void>;
}

const MIGRATIONS = fileURLToPath(new URL('../../../drizzle', import.meta.url));

export function connect(url: string, max = 10): Database {
  const sql = postgres(url, { max, onnotice: () => {}, connection: { application_name: 'accommodation-data-service' } });
  return { db: drizzle(sql, { schema }), sql, close: () => sql.end({ timeout: 5 }) };
}

/** Applies the SQL migrations in drizzle/ (idempotent), on a connection of its own. */
export async function runMigrations(url: string): Promise<void> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await migrate(drizzle(sql), { migrationsFolder: MIGRATIONS });
  } finally {
    await sql.end({ timeout: 5 });
  }
}
