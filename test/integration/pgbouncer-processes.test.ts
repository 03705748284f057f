import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../src/config.js';
import { createDeps, type Deps } from '../../src/deps.js';
import { errorLines, startService, type ServiceProcess } from '../support/cluster.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { startPgbouncer, type Pgbouncer } from '../support/pgbouncer.js';

/**
 * Issue 28 item 2 with real processes: an API process (RUN_WORKER=false) and a worker process,
 * both with DATABASE_URL at pgbouncer in transaction mode and DATABASE_DIRECT_URL at PostgreSQL,
 * start (migrating through the direct URL), and a job accepted by one is run by the other and
 * heard by a long poll.
 */
let db: TestDatabase;
let bouncer: Pgbouncer;
let api: ServiceProcess;
let worker: ServiceProcess;
let deps: Deps;

beforeAll(async () => {
  db = await createTestDatabase();
  bouncer = await startPgbouncer();
  const env = { NODE_ENV: 'test', DATABASE_URL: bouncer.urlFor(db.url), DATABASE_DIRECT_URL: db.url, WORKER_POLL_MS: '200' };
  api = await startService('api', { ...env, RUN_WORKER: 'false' });
  worker = await startService('worker', env);
  deps = createDeps(testConfig({ databaseDirectUrl: db.url }), bouncer.urlFor(db.url));
}, 120_000);
afterAll(async () => {
  await api?.kill('SIGTERM');
  await worker?.kill('SIGTERM');
  await deps?.close();
  await bouncer?.stop();
  await db?.drop();
});

describe('API and worker processes behind pgbouncer', () => {
  it('a sandbox:async job accepted by the API process is run by the worker process and heard by a long poll', async () => {
    const { accountId } = await deps.admin.createAccount({ email: 'processes@example.com', plan: 'free', credits: 0, verified: true, password: null });
    const { key } = await deps.admin.createKey(accountId, 'sandbox');
    const res = await fetch(`${api.url}/v1/search?location=sandbox:async&platforms=airbnb`, { headers: { Authorization: `Bearer ${key}`, Prefer: 'respond-async, wait=20' } });
    expect(res.status, api.output()).toBe(200);
    expect(res.headers.get('preference-applied')).toBe('wait=20');
    const ready = await fetch(`${api.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(errorLines(api.output())).toEqual([]);
    expect(errorLines(worker.output())).toEqual([]);
  });
});
