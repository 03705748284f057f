import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliJson } from '../support/cli-process.js';
import { clusterEnv, errorLines, startReplayUpstream, startServices, type ServiceProcess } from '../support/cluster.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { startPgbouncer, type Pgbouncer } from '../support/pgbouncer.js';
import { startRedisCluster, type RedisClusterProcess } from '../support/redis-cluster.js';

/**
 * Issue 28 item 3, the whole topology of the production guide's "Beyond one machine" on one
 * machine: a Redis Cluster of 3 masters, pgbouncer in transaction mode (DATABASE_URL) with
 * DATABASE_DIRECT_URL straight at PostgreSQL, two API processes (RUN_WORKER=false) and one worker
 * process, all started as operators start them. The admin CLI, through pgbouncer, opens the account,
 * its keys and its credits. Then: a Free sandbox key gets exactly 30 of 40 searches spread over
 * both API processes; a search cached by one is `cached: true` on the other; a billed live search
 * (replay upstream) debits once, its Idempotency-Key repeat on the other process replaying it; a
 * `sandbox:async` job accepted by one process, run by the worker, is heard by a long poll on the
 * other; and no process logs a line at error level. scale-out.test.ts is the same on one Redis,
 * PostgreSQL direct.
 */
let db: TestDatabase;
let cluster: RedisClusterProcess;
let bouncer: Pgbouncer;
let replay: Awaited<ReturnType<typeof startReplayUpstream>>;
let sql: postgres.Sql;
const apis: ServiceProcess[] = [];
let worker: ServiceProcess | undefined;
let operator: Record<string, string>;
const keys = { accountId: '', sandbox: '', sandboxOther: '', live: '' };
const GRANT = 500;

/** Like Promise.all, but waits for every start to settle first, so teardown finds all that started. */
async function settled(starts: Promise<unknown>[]): Promise<void> {
  const failed = (await Promise.allSettled(starts)).find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
}

beforeAll(async () => {
  await settled([
    createTestDatabase().then((d) => (db = d)),
    startRedisCluster({ masters: 3, replicasPerMaster: 0 }).then((c) => (cluster = c)),
    startPgbouncer().then((b) => (bouncer = b)),
    startReplayUpstream().then((r) => (replay = r)),
  ]);
  const database = { pooled: bouncer.urlFor(db.url), direct: db.url };
  const env = { ...clusterEnv(database, { clusterNodes: cluster.seeds }, replay.url, ['airbnb', 'booking']), NODE_ENV: 'test', LOG_LEVEL: 'info', WORKER_POLL_MS: '200' };
  operator = { DATABASE_URL: database.pooled, DATABASE_DIRECT_URL: database.direct };
  const services = startServices(['api', 'api', 'worker'], env).then(([a, b, w]) => {
    apis.push(a!, b!);
    worker = w;
  });
  await settled([services, openAccount()]);
  sql = postgres(db.url, { max: 1, onnotice: () => {} });
}, 90_000);

afterAll(async () => {
  await Promise.all([...apis, worker].map((p) => p?.kill('SIGTERM')));
  await sql?.end();
  await replay?.close();
  await bouncer?.stop();
  await cluster?.stop();
  await db?.drop();
}, 30_000);

/** What an operator types: an account on the Free plan, its keys, a credit grant; all through pgbouncer. */
async function openAccount(): Promise<void> {
  const { accountId } = await cliJson<{ accountId: string }>(operator, 'account', 'create', '--email', 'together@example.com', '--plan', 'free');
  const key = (env: string) => cliJson<{ key: string }>(operator, 'key', 'create', '--account', accountId, '--env', env).then((k) => k.key);
  const [sandbox, sandboxOther, live] = await Promise.all([key('sandbox'), key('sandbox'), key('live'), cliJson(operator, 'credits', 'grant', '--account', accountId, '--amount', String(GRANT))]);
  Object.assign(keys, { accountId, sandbox, sandboxOther, live });
}

const get = (api: ServiceProcess, path: string, key: string, headers: Record<string, string> = {}) => fetch(`${api.url}${path}`, { headers: { Authorization: `Bearer ${key}`, ...headers } });
const outputs = () => [...apis, worker!].map((p) => p.output()).join('\n');

describe('2 API processes and a worker on a 3-master Redis Cluster and pgbouncer', () => {
  it('each API process keeps its cache and rate limits in the cluster, as its start-up line says', () => {
    for (const api of apis) expect(api.output()).toContain('"cacheAndLimits":"redis-cluster"');
  });

  it('a Free sandbox key gets exactly 30 of 40 searches spread over both API processes', async () => {
    const statuses = await Promise.all(Array.from({ length: 40 }, (_, i) => get(apis[i % 2]!, `/v1/search?location=Porto&limit=${1 + (i % 5)}`, keys.sandbox).then((r) => r.status)));
    expect(statuses.filter((s) => s === 200), outputs()).toHaveLength(30);
    expect(statuses.filter((s) => s === 429)).toHaveLength(10);
  });

  it('a search cached by one API process is `cached: true` on the other', async () => {
    const path = '/v1/search?location=Cadiz&limit=3';
    const first = (await (await get(apis[0]!, path, keys.sandboxOther)).json()) as { meta: { cached: boolean } };
    const second = (await (await get(apis[1]!, path, keys.sandboxOther)).json()) as { meta: { cached: boolean } };
    expect([first.meta.cached, second.meta.cached]).toEqual([false, true]);
  });

  it('a billed live search debits once: its Idempotency-Key repeat on the other process replays it', async () => {
    const path = '/v1/search?location=Lisbon&platforms=airbnb,booking&checkIn=2029-03-01&checkOut=2029-03-03';
    const first = await get(apis[0]!, path, keys.live, { 'Idempotency-Key': 'together-1' });
    expect(first.status, outputs()).toBe(200);
    const charged = ((await first.json()) as { meta: { creditsCharged: number } }).meta.creditsCharged;
    expect(charged).toBeGreaterThan(0);
    const again = await get(apis[1]!, path, keys.live, { 'Idempotency-Key': 'together-1' });
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const debits = await sql<{ amount: number }[]>`select amount::int as amount from credit_ledger where account_id = ${keys.accountId} and amount < 0`;
    expect(debits.map((d) => d.amount)).toEqual([-charged]);
    const shown = await cliJson<{ balance: number }>(operator, 'account', 'show', '--account', keys.accountId);
    expect(shown.balance).toBe(GRANT - charged);
  });

  it('a sandbox:async job accepted by one API process is run by the worker and heard by a long poll on the other', async () => {
    const accepted = await get(apis[0]!, '/v1/search?location=sandbox:async&platforms=airbnb', keys.sandboxOther);
    expect(accepted.status, outputs()).toBe(202);
    const { jobId } = ((await accepted.json()) as { data: { jobId: string } }).data;
    const polled = await get(apis[1]!, `/v1/jobs/${jobId}`, keys.sandboxOther, { Prefer: 'wait=20' });
    expect(polled.status).toBe(200);
    expect(((await polled.json()) as { data: { status: string } }).data.status).toBe('completed');
    const [row] = await sql<{ status: string }[]>`select status from async_jobs where id = ${jobId}`;
    expect(row?.status).toBe('completed');
  });

  it('no process logged a line at error level, and each is still running', () => {
    for (const p of [...apis, worker!]) {
      expect(errorLines(p.output())).toEqual([]);
      expect(p.proc.exitCode).toBeNull();
    }
  });
});
