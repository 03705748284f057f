import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../src/config.js';
import { createDeps, type Deps } from '../../src/deps.js';
import { connect, IDLE_IN_TRANSACTION_MS } from '../../src/adapters/postgres/db.js';
import { startReplayUpstream, startService, type ServiceProcess } from '../support/cluster.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';

/**
 * Issue 23, item 4: an API process frozen (SIGSTOP) past its Idempotency-Key claim's lease loses
 * the key to a retry on another process, which answers and charges. When the first wakes
 * (SIGCONT), its debit is fenced by the claim it no longer holds: it must never charge. Before
 * the fence it posted its own charge: one key, two ledger rows. Short lease for the test.
 */
let db: TestDatabase;
let replay: Awaited<ReturnType<typeof startReplayUpstream>>;
let admin: Deps;
let first: ServiceProcess;
let second: ServiceProcess;
let sql: postgres.Sql;

const LEASE_MS = 1_500;

beforeAll(async () => {
  db = await createTestDatabase();
  replay = await startReplayUpstream({ delayMs: 1_000 });
  const env = {
    DATABASE_URL: db.url,
    RUN_WORKER: 'false',
    LIVE_PLATFORMS: 'airbnb',
    AIRBNB_BASE_URL: `${replay.url}/airbnb`,
    UPSTREAM_RETRIES: '0',
    UPSTREAM_TIMEOUT_MS: '30000',
    LEG_DEADLINE_MS: '30000',
    ASYNC_THRESHOLD_MS: '600000',
    IDEMPOTENCY_LEASE_MS: String(LEASE_MS),
  };
  [first, second] = await Promise.all([startService('api', env), startService('api', env)]);
  admin = createDeps(testConfig(), db.url);
  sql = postgres(db.url, { max: 2, onnotice: () => {} });
}, 120_000);

afterAll(async () => {
  if (first?.proc.pid) process.kill(first.proc.pid, 'SIGCONT');
  await first?.kill();
  await second?.kill();
  await sql?.end();
  await admin?.close();
  await replay?.close();
  await db?.drop();
});

describe('an Idempotency-Key claim lost while its process was frozen', () => {
  it('never charges when the process wakes: one key, one ledger row', async () => {
    const { accountId } = await admin.admin.createAccount({ email: 'frozen@example.com', plan: 'scale', credits: 1_000, verified: true, password: null });
    const { key } = await admin.admin.createKey(accountId, 'live');
    const call = (base: string) =>
      fetch(`${base}/v1/search?location=Lisbon&platforms=airbnb&checkIn=2029-05-01&checkOut=2029-05-03`, { headers: { Authorization: `Bearer ${key}`, 'Idempotency-Key': 'frozen-1' } });

    const stalled = call(first.url);
    // Freeze the first process as soon as it holds the key (its upstream leg takes 1 s).
    for (let i = 0; ; i++) {
      const rows = await sql`select 1 from idempotency_keys where account_id = ${accountId} and key = 'frozen-1' and status = 'running'`;
      if (rows.length > 0) break;
      if (i > 400) throw new Error('the first request never claimed its key');
      await new Promise((r) => setTimeout(r, 10));
    }
    process.kill(first.proc.pid!, 'SIGSTOP');
    try {
      await new Promise((r) => setTimeout(r, LEASE_MS + 500));
      const retry = await call(second.url);
      expect(retry.status).toBe(200);
      const paid = ((await retry.json()) as { meta: { creditsCharged: number } }).meta.creditsCharged;
      expect(paid).toBeGreaterThan(0);
    } finally {
      process.kill(first.proc.pid!, 'SIGCONT');
    }
    const woke = await stalled;
    const body = (await woke.json()) as { error?: { code: string } };
    expect(woke.status).toBe(409);
    expect(body.error?.code).toBe('idempotency_key_in_use');

    const rows = await sql<{ entry_key: string; amount: string }[]>`select entry_key, amount::text from credit_ledger where account_id = ${accountId} and entry_key like 'req:%'`;
    expect(rows).toHaveLength(1);
    expect(await balance(accountId)).toBe(1_000 + Number(rows[0]!.amount));
    // A retry now answers the stored answer, free.
    const replayed = await call(first.url);
    expect(replayed.status).toBe(200);
    expect(await balance(accountId)).toBe(1_000 + Number(rows[0]!.amount));
  });

  it('runs the service connections with idle_in_transaction_session_timeout set', async () => {
    const database = connect(db.url, 1);
    try {
      const { rows } = await database.pool.query<{ idle_in_transaction_session_timeout: string }>('show idle_in_transaction_session_timeout');
      expect(rows[0]!.idle_in_transaction_session_timeout).toBe(`${IDLE_IN_TRANSACTION_MS / 1000}s`);
    } finally {
      await database.close();
    }
  });
});

async function balance(accountId: string): Promise<number> {
  const [row] = await sql<{ b: string }[]>`select credit_balance::text as b from accounts where id = ${accountId}`;
  return Number(row!.b);
}
