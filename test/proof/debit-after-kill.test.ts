import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../src/config.js';
import { createDeps, type Deps } from '../../src/deps.js';
import { startReplayUpstream, startService, type ServiceProcess } from '../support/cluster.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';

/**
 * An API process killed (SIGKILL) while its debit waits on the account's row lock: the debit must
 * never commit after the kill. The test holds the lock itself, kills the process once its debit
 * is seen waiting, then releases the lock and checks the ledger.
 */
let db: TestDatabase;
let replay: Awaited<ReturnType<typeof startReplayUpstream>>;
let admin: Deps;
let api: ServiceProcess;
let sql: postgres.Sql;

beforeAll(async () => {
  db = await createTestDatabase();
  replay = await startReplayUpstream({ delayMs: 5 });
  api = await startService('api', { DATABASE_URL: db.url, RUN_WORKER: 'false', LIVE_PLATFORMS: 'airbnb', AIRBNB_BASE_URL: `${replay.url}/airbnb`, UPSTREAM_RETRIES: '0' });
  admin = createDeps(testConfig(), db.url);
  sql = postgres(db.url, { max: 2, onnotice: () => {} });
}, 120_000);

afterAll(async () => {
  await api?.kill();
  await sql?.end();
  await admin?.close();
  await replay?.close();
  await db?.drop();
});

describe('a debit waiting on a lock when its process dies', () => {
  it('is cancelled with its connection, never committed after the kill', async () => {
    const { accountId } = await admin.admin.createAccount({ email: 'lock@example.com', plan: 'scale', credits: 1_000, verified: true, password: null });
    const { key } = await admin.admin.createKey(accountId, 'live');
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    let locked!: () => void;
    const isLocked = new Promise<void>((r) => (locked = r));
    const holder = sql.begin(async (tx) => {
      await tx`select id from accounts where id = ${accountId} for update`;
      locked();
      await released;
    });
    await isLocked;

    void fetch(`${api.url}/v1/search?location=Lisbon&platforms=airbnb`, { headers: { Authorization: `Bearer ${key}` } }).catch(() => {});
    const until = Date.now() + 20_000;
    for (;;) {
      const waiting = await sql`select pid from pg_stat_activity where application_name = 'accommodation-data-service' and wait_event_type = 'Lock' and datname = current_database()`;
      if (waiting.length > 0) break;
      if (Date.now() > until) throw new Error('the debit never waited on the lock');
      await new Promise((r) => setTimeout(r, 50));
    }
    await api.kill('SIGKILL');
    await new Promise((r) => setTimeout(r, 2_500)); // past the server's connection check (1 s)
    release();
    await holder;
    await new Promise((r) => setTimeout(r, 500));

    const debits = await sql`select entry_key from credit_ledger where account_id = ${accountId} and amount < 0`;
    expect(debits).toEqual([]);
    const [account] = await sql<{ b: string }[]>`select credit_balance::text as b from accounts where id = ${accountId}`;
    expect(account!.b).toBe('1000');
  }, 60_000);
});
