import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../src/config.js';
import { createDeps, type Deps } from '../../src/deps.js';
import { clusterEnv, startRedis, startReplayUpstream, startServices, type RedisProcess, type ServiceProcess } from '../support/cluster.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';

/**
 * Scale-out: two API processes and two job workers on one PostgreSQL and one Redis. Rate limits
 * hold exactly across processes, and every job is billed once whichever worker runs it.
 */
let db: TestDatabase;
let redis: RedisProcess;
let replay: Awaited<ReturnType<typeof startReplayUpstream>>;
let admin: Deps;
const query = async <T>(text: string): Promise<T[]> => (await admin.db.execute(text)).rows as T[];
const apis: ServiceProcess[] = [];
const workers: ServiceProcess[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  redis = await startRedis();
  replay = await startReplayUpstream();
  const env = {
    ...clusterEnv(db.url, redis.url, replay.url, ['airbnb', 'booking', 'vrbo', 'google']),
    // google declares 2.5 s per provider call: with a 1 s threshold its searches become jobs
    ASYNC_THRESHOLD_MS: '1000',
    WORKER_POLL_MS: '200',
  };
  apis.push(...(await startServices(['api', 'api'], env)));
  workers.push(...(await startServices(['worker', 'worker'], env)));
  admin = createDeps(testConfig(), db.url);
}, 240_000);

afterAll(async () => {
  await Promise.all([...apis, ...workers].map((p) => p.kill()));
  await admin?.close();
  await replay?.close();
  await redis?.stop();
  await db?.drop();
}, 60_000);

async function newKey(env: 'live' | 'sandbox', credits = 0) {
  const { accountId } = await admin.admin.createAccount({ email: `u${Math.random()}@example.com`, plan: 'scale', credits, verified: true, password: null });
  return { accountId, ...(await admin.admin.createKey(accountId, env)) };
}

describe('two API processes and two workers on one PostgreSQL and Redis', () => {
  it('keeps rate limits exact across processes', async () => {
    const { key } = await newKey('sandbox'); // sandbox keys: 30 requests a minute
    const statuses = await Promise.all(
      Array.from({ length: 60 }, (_, i) => fetch(`${apis[i % 2]!.url}/v1/account`, { headers: { Authorization: `Bearer ${key}` } }).then((r) => r.status)),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(30);
    expect(statuses.filter((s) => s === 429)).toHaveLength(30);
  });

  it('bills every job once, whichever process accepted it and whichever worker ran it', async () => {
    const { key, accountId } = await newKey('live', 10_000);
    const accepted = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        fetch(`${apis[i % 2]!.url}/v1/search?location=Lisbon&platforms=google&limit=${i + 1}`, { headers: { Authorization: `Bearer ${key}` } }).then(async (r) => ({ status: r.status, body: (await r.json()) as { data: { jobId: string } } })),
      ),
    );
    expect(accepted.map((a) => a.status)).toEqual(Array(20).fill(202));
    const ids = accepted.map((a) => a.body.data.jobId);
    const deadline = Date.now() + 60_000;
    let done = 0;
    while (Date.now() < deadline && done < 20) {
      const [row] = await query<{ n: number }>(`select count(*)::int as n from async_jobs where id in (${ids.map((id) => `'${id}'`).join(',')}) and status in ('completed', 'failed')`);
      done = Number(row?.n ?? 0);
      if (done < 20) await new Promise((r) => setTimeout(r, 250));
    }
    expect(done).toBe(20);
    const jobs = await query<{ id: string; status: string; credits_charged: number }>(`select id, status, credits_charged from async_jobs where id in (${ids.map((id) => `'${id}'`).join(',')})`);
    expect(jobs.every((j) => j.status === 'completed' && j.credits_charged === 5)).toBe(true);
    const ledger = await query<{ entry_key: string; amount: number }>(`select entry_key, amount::int as amount from credit_ledger where account_id = '${accountId}' and amount < 0`);
    expect(ledger.map((l) => l.entry_key).sort()).toEqual(ids.map((id) => `job:${id}`).sort());
    expect(ledger.every((l) => l.amount === -5)).toBe(true);
    const [balance] = await query<{ b: number }>(`select credit_balance::int as b from accounts where id = '${accountId}'`);
    expect(balance!.b).toBe(10_000 - 100);
  });
});
