import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../src/config.js';
import { createDeps, type Deps } from '../../src/deps.js';
import { clusterEnv, startRedis, startReplayUpstream, startService, type RedisProcess, type ServiceProcess } from '../support/cluster.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';

/**
 * Billing under faults: 2,000 billable calls over 20 live keys, 100 in flight, through two API
 * processes, while upstream legs fail and hang, Redis pauses, PostgreSQL backends are killed and
 * one API process is killed and restarted. Afterwards the ledger must explain every balance.
 */
const CALLS = 2_000;
const IN_FLIGHT = 100;
const KEYS = 20;
const OPENING = 600;

let db: TestDatabase;
let redis: RedisProcess;
let replay: Awaited<ReturnType<typeof startReplayUpstream>>;
let admin: Deps;
const query = async <T>(text: string): Promise<T[]> => (await admin.db.execute(text)).rows as T[];
let env: Record<string, string>;
const apis: ServiceProcess[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  redis = await startRedis();
  replay = await startReplayUpstream({ errorRate: 0.08, hangRate: 0.04, delayMs: 5, jitterMs: 20 });
  env = {
    ...clusterEnv(db.url, redis.url, replay.url, ['airbnb', 'booking', 'vrbo']),
    UPSTREAM_TIMEOUT_MS: '600',
    LEG_DEADLINE_MS: '700',
    BREAKER_MIN_CALLS: '1000000', // breakers off: every leg must meet the injected faults
  };
  apis.push(...(await Promise.all([startService('api', env), startService('api', env)])));
  admin = createDeps(testConfig(), db.url);
}, 240_000);

afterAll(async () => {
  await Promise.all(apis.map((p) => p.kill()));
  await admin?.close();
  await replay?.close();
  await redis?.stop();
  await db?.drop();
}, 60_000);

const networkErrors = new Map<string, number>();

interface Outcome {
  key: number;
  status: number | 'network';
  requestId: string | null;
  credits: number;
}

async function call(url: string, key: string, i: number): Promise<Omit<Outcome, 'key'>> {
  try {
    const res = await fetch(`${url}/v1/search?location=Lisbon&platforms=airbnb,booking,vrbo&adults=${1 + (i % 6)}&limit=${1 + (i % 40)}&rooms=${1 + (i % 3)}`, {
      headers: { Authorization: `Bearer ${key}` },
      signal: AbortSignal.timeout(15_000),
    });
    const body = (await res.json()) as { meta?: { creditsCharged?: number } };
    return { status: res.status, requestId: res.headers.get('x-request-id'), credits: body.meta?.creditsCharged ?? 0 };
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    networkErrors.set(String(cause?.code ?? cause?.message ?? err), (networkErrors.get(String(cause?.code ?? cause?.message ?? err)) ?? 0) + 1);
    return { status: 'network', requestId: null, credits: 0 };
  }
}

describe('billing under faults', () => {
  it('never loses, doubles or overdraws a charge', async () => {
    const keys = await Promise.all(
      Array.from({ length: KEYS }, async (_, i) => {
        const { accountId } = await admin.admin.createAccount({ email: `load${i}@example.com`, plan: 'scale', credits: OPENING, verified: true, password: null });
        return { accountId, key: (await admin.admin.createKey(accountId, 'live')).key };
      }),
    );

    const outcomes: Outcome[] = [];
    let next = 0;
    const faults = {
      redisPaused: false,
      backendsKilled: 0,
      apiKilled: false,
    };
    const injectFaults = async () => {
      const progress = outcomes.length / CALLS;
      if (progress > 0.2 && !faults.redisPaused) {
        faults.redisPaused = true;
        await redis.client.call('CLIENT', 'PAUSE', '700', 'ALL');
      }
      if (progress > 0.4 && faults.backendsKilled === 0) {
        faults.backendsKilled = -1;
        const killed = await query<{ ok: boolean }>(
          `select pg_terminate_backend(pid) as ok from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and application_name = 'accommodation-data-service'`,
        );
        faults.backendsKilled = killed.length;
      }
      if (progress > 0.6 && !faults.apiKilled) {
        faults.apiKilled = true;
        const victim = apis.shift()!;
        await victim.kill('SIGKILL');
        apis.push(await startService('api', env));
      }
    };
    const worker = async () => {
      while (next < CALLS) {
        const i = next++;
        const k = i % KEYS;
        const target = apis[i % apis.length]!;
        outcomes.push({ key: k, ...(await call(target.url, keys[k]!.key, i)) });
        if (i % 50 === 0) await injectFaults();
      }
    };
    await Promise.all(Array.from({ length: IN_FLIGHT }, worker));

    const byStatus: Record<string, number> = {};
    for (const o of outcomes) byStatus[String(o.status)] = (byStatus[String(o.status)] ?? 0) + 1;
    console.log(`billing under faults: ${JSON.stringify(byStatus)}; backends killed ${faults.backendsKilled}; network errors ${JSON.stringify([...networkErrors])}`);
    // No API process may die of the faults (only the one the suite kills).
    for (const a of apis) expect(a.proc.exitCode, a.output().slice(-2000)).toBeNull();
    expect(outcomes).toHaveLength(CALLS);
    expect(byStatus['200']).toBeGreaterThan(CALLS / 4);
    expect(faults.backendsKilled).toBeGreaterThan(0);

    const ledger = await query<{ account_id: string; entry_key: string; amount: number }>(`select account_id, entry_key, amount::int as amount from credit_ledger`);
    const balances = await query<{ id: string; b: number }>(`select id, credit_balance::int as b from accounts`);
    const rows = new Map(ledger.map((l) => [l.entry_key, l]));
    expect(rows.size).toBe(ledger.length); // no duplicate entry keys

    for (const { accountId } of keys) {
      const balance = balances.find((b) => b.id === accountId)!.b;
      expect(balance).toBeGreaterThanOrEqual(0);
      const sum = ledger.filter((l) => l.account_id === accountId).reduce((s, l) => s + l.amount, 0);
      expect(sum).toBe(balance); // the opening grant is a ledger row too
    }
    let delivered = 0;
    for (const o of outcomes) {
      if (typeof o.status === 'number' && o.status === 200 && o.credits > 0) {
        delivered++;
        expect(rows.get(`req:${o.requestId}`)?.amount).toBe(-o.credits); // every billed answer has exactly its row
      } else if (o.requestId) {
        expect(rows.has(`req:${o.requestId}`)).toBe(false); // failures, 402, 429 and 503 cost nothing
      }
    }
    // A charge whose answer never arrived can only belong to a request cut off by the killed process.
    const undelivered = ledger.filter((l) => l.entry_key.startsWith('req:')).length - delivered;
    expect(undelivered).toBeLessThanOrEqual(byStatus.network ?? 0);
  }, 300_000);
});
