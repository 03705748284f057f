import type { AddressInfo } from 'node:net';
import { freePort } from './cluster.js';
import postgres from 'postgres';
import { testConfig, type Config } from '../../src/config.js';
import { createDeps, type Deps, type DepsOverrides } from '../../src/deps.js';
import type { KeyEnv, PlanCode } from '../../src/domain/accounts/plans.js';
import { createHttpServer } from '../../src/app/server.js';
import { startWorker } from '../../src/app/job-worker.js';
import { createTestDatabase, type TestDatabase } from './db.js';

/** Test apps serve /metrics on their public listener behind this token. */
export const TEST_METRICS_TOKEN = 'test-metrics-token-0123456789';

export interface TestApp {
  baseUrl: string;
  deps: Deps;
  db: TestDatabase;
  /** A direct connection to the app's database, for assertions. */
  sql: postgres.Sql;
  /** A new account (verified, free plan unless said) with one key of `env`. */
  newKey(env?: KeyEnv, opts?: { plan?: PlanCode; credits?: number; verified?: boolean }): Promise<{ key: string; keyId: string; accountId: string }>;
  /** The account's credit balance as PostgreSQL holds it. */
  balanceOf(accountId: string): Promise<number>;
  get(path: string, key?: string, headers?: Record<string, string>): Promise<Response>;
  close(): Promise<void>;
}

/** The whole service over real HTTP on a free port, on a fresh real database. */
export async function startTestApp(
  overrides: DepsOverrides & { config?: Partial<Config>; worker?: boolean; viaPooler?: (directUrl: string) => string } = {},
): Promise<TestApp> {
  const db = await createTestDatabase();
  const { config: configOverrides, worker, viaPooler, ...depsOverrides } = overrides;
  // The public URL must be the real address: OAuth metadata and MCP discovery hand it to clients.
  const port = await freePort();
  // Every test request comes from 127.0.0.1: the per-address bucket for keyless calls is widened.
  const config = testConfig({
    publicUrl: `http://127.0.0.1:${port}`,
    anonymousPerMinute: 100_000,
    metrics: { port: null, token: TEST_METRICS_TOKEN },
    // Through a pooler (pgbouncer), what needs a session goes straight to the database, as DATABASE_DIRECT_URL says.
    ...(viaPooler ? { databaseDirectUrl: db.url } : {}),
    ...configOverrides,
    worker: { concurrency: 4, pollIntervalMs: 200, heartbeatMs: 500, staleAfterMs: 2_000, maxAttempts: 3, ...configOverrides?.worker },
  });
  const deps = createDeps(config, viaPooler ? viaPooler(db.url) : db.url, depsOverrides);
  const server = createHttpServer(deps, { oauthRateLimit: false });
  const runner = worker ? await startWorker(deps, db.url) : null;
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let n = 0;
  const sql = postgres(db.url, { max: 2, onnotice: () => {} });
  return {
    baseUrl,
    deps,
    db,
    sql,
    async newKey(env = 'sandbox', opts = {}) {
      const { accountId } = await deps.admin.createAccount({
        email: `user${++n}-${Date.now()}@example.com`,
        plan: opts.plan ?? 'free',
        credits: opts.credits ?? 0,
        verified: opts.verified ?? true,
        password: null,
      });
      const { key, keyId } = await deps.admin.createKey(accountId, env);
      return { key, keyId, accountId };
    },
    async balanceOf(accountId) {
      const [row] = await sql<{ b: string }[]>`select credit_balance::text as b from accounts where id = ${accountId}`;
      return Number(row!.b);
    },
    get(path, key, headers = {}) {
      return fetch(`${baseUrl}${path}`, { headers: { ...(key ? { Authorization: `Bearer ${key}` } : {}), ...headers } });
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await runner?.stop();
      await deps.close();
      await sql.end();
      await db.drop();
    },
  };
}
