import type { AddressInfo } from 'node:net';
import type { Cluster } from 'ioredis';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectConfiguredRedis, connectRedisCluster } from '../../src/adapters/redis/client.js';
import { createHttpServer } from '../../src/app/server.js';
import { createDeps, type Deps } from '../../src/deps.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { freePort, startRedis, startService } from '../support/cluster.js';
import { ask, startRedisCluster, type RedisClusterProcess } from '../support/redis-cluster.js';
import { moveSlot, nodeStats } from '../support/redis-cluster-admin.js';

/**
 * The service on a Redis Cluster of its own (3 masters, 3 replicas): two deps instances, as two
 * API processes would be, and a started API process share exact rate limits and one cache; no
 * command spans two slots; a bucket's slot moving to another master mid-run (MOVED, ASK) changes
 * nothing; a master killed under load costs no request an error answer; with every node down the
 * service keeps the promise of a Redis outage, and a start pointed at no cluster says so.
 */
let cluster: RedisClusterProcess;
let clients: Cluster[] = [];
let app: TestApp;
let other: { deps: Deps; baseUrl: string; close(): Promise<void> };
const lines: { level: number; msg: string; proc: 'a' | 'b'; downForMs?: number; failures?: number }[] = [];
const logOf = (proc: 'a' | 'b') => pino({ level: 'info', base: { proc } }, { write: (l: string) => void lines.push(JSON.parse(l) as (typeof lines)[number]) });

beforeAll(async () => {
  cluster = await startRedisCluster({ masters: 3, replicasPerMaster: 1, nodeTimeoutMs: 1_000 });
  clients = await Promise.all([connectRedisCluster(cluster.nodes), connectRedisCluster(cluster.nodes), connectRedisCluster(cluster.nodes)]);
  app = await startTestApp({ redis: clients[0]!, log: logOf('a') });
  // A second "process": its own deps and HTTP server on the same database and cluster.
  const deps = createDeps(app.deps.config, app.db.url, { redis: clients[1]!, log: logOf('b') });
  const server = createHttpServer(deps, { oauthRateLimit: false });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  other = {
    deps,
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      await deps.close();
    },
  };
  // Counters from here on: creating the cluster (redis-cli) leaves errors of its own on the replicas.
  await Promise.all(cluster.ports.map((p) => ask(p, 'CONFIG', 'RESETSTAT')));
}, 60_000);

afterAll(async () => {
  await other?.close();
  await app?.close();
  clients[2]?.disconnect();
  await cluster?.stop();
});

const call = (base: string, path: string, key: string) => fetch(`${base}${path}`, { headers: { Authorization: `Bearer ${key}` } });
const CITIES = ['Lyon', 'Nantes', 'Lille', 'Nice', 'Bordeaux', 'Toulouse', 'Rennes', 'Dijon', 'Metz', 'Brest', 'Tours', 'Reims'];
const warnings = () => lines.filter((l) => l.level >= 40);

describe('on a Redis Cluster, two processes', () => {
  it('share exact rate limits: a Free sandbox key gets 30 of 40 calls spread over both', async () => {
    const { key } = await app.newKey('sandbox');
    const statuses = await Promise.all(Array.from({ length: 40 }, (_, i) => call(i % 2 ? other.baseUrl : app.baseUrl, '/v1/account', key).then((r) => r.status)));
    expect(statuses.filter((s) => s === 200)).toHaveLength(30);
    expect(statuses.filter((s) => s === 429)).toHaveLength(10);
  });

  it('and an API process started with REDIS_CLUSTER_NODES shares them too', async () => {
    const api = await startService('api', { DATABASE_URL: app.db.url, REDIS_CLUSTER_NODES: cluster.seeds, RUN_WORKER: 'false', LOG_LEVEL: 'info' });
    try {
      expect(api.output()).toContain('"cacheAndLimits":"redis-cluster"');
      const { key } = await app.newKey('sandbox');
      const bases = [app.baseUrl, other.baseUrl, api.url];
      const statuses = await Promise.all(Array.from({ length: 40 }, (_, i) => call(bases[i % 3]!, '/v1/account', key).then((r) => r.status)));
      expect(statuses.filter((s) => s === 200)).toHaveLength(30);
      const path = '/v1/search?location=Cadiz&limit=2';
      const { key: searcher } = await app.newKey('sandbox');
      expect(((await (await call(api.url, path, searcher)).json()) as { meta: { cached: boolean } }).meta.cached).toBe(false);
      expect(((await (await call(app.baseUrl, path, searcher)).json()) as { meta: { cached: boolean } }).meta.cached).toBe(true);
      expect(api.output()).not.toMatch(/"level":(40|50|60)/);
    } finally {
      await api.kill('SIGTERM');
    }
  });

  it('share one cache: a search cached by one is cached: true on the other', async () => {
    const { key } = await app.newKey('sandbox');
    const path = '/v1/search?location=Valencia&limit=3';
    const first = (await (await call(app.baseUrl, path, key)).json()) as { meta: { cached: boolean } };
    const second = (await (await call(other.baseUrl, path, key)).json()) as { meta: { cached: boolean } };
    expect(first.meta.cached).toBe(false);
    expect(second.meta.cached).toBe(true);
  });

  it("keeps an account's buckets in its own slot, tagged {acct:<id>}, and the count exact while that slot moves to another master", async () => {
    const { key, keyId, accountId } = await app.newKey('sandbox');
    const redis = clients[2]!;
    const slot = Number(await redis.call('CLUSTER', 'KEYSLOT', `acct:${accountId}`));
    const before = await Promise.all(Array.from({ length: 20 }, (_, i) => call(i % 2 ? other.baseUrl : app.baseUrl, '/v1/account', key).then((r) => r.status)));
    const bucketKey = `rl:{acct:${accountId}}:key:${keyId}`;
    expect(Number(await redis.call('CLUSTER', 'KEYSLOT', bucketKey))).toBe(slot);
    expect(await redis.hget(bucketKey, 'units')).not.toBeNull();
    // Both processes still address the old master: their next calls meet MOVED (or ASK) and follow it.
    const moved = await moveSlot(cluster, slot);
    const after = await Promise.all(Array.from({ length: 20 }, (_, i) => call(i % 2 ? other.baseUrl : app.baseUrl, '/v1/account', key).then((r) => r.status)));
    expect(moved.from).not.toBe(moved.to);
    expect([...before, ...after].filter((s) => s === 200)).toHaveLength(30);
    expect([...before, ...after].filter((s) => s === 429)).toHaveLength(10);
  });

  it('ran every bucket in the Lua script on the masters, with no CROSSSLOT or other error, and never fell back', async () => {
    const stats = await Promise.all(cluster.ports.map((p) => nodeStats(p)));
    const scriptCalls = stats.reduce((n, s) => n + s.scriptCalls, 0);
    expect(scriptCalls).toBeGreaterThanOrEqual(40 + 40 + 40 + 2);
    expect(stats.filter((s) => s.scriptCalls > 0).length).toBeGreaterThanOrEqual(2); // accounts spread over masters
    expect(stats.flatMap((s) => s.errors).filter((e) => !/^(MOVED|ASK|NOSCRIPT)=/.test(e))).toEqual([]);
    expect(warnings()).toEqual([]);
  });
});

describe('a master killed under load', () => {
  it('answers every call 200 while the replica takes over (fallback, never a 500), then runs on Redis again', async () => {
    // 60 accounts of 30 calls a minute, a call every 25 ms per loop: no bucket runs dry, and
    // about a third of the accounts have their buckets on the master that dies.
    const keys = await Promise.all(Array.from({ length: 60 }, () => app.newKey('sandbox')));
    const statuses = new Map<number, number>();
    let stop = false;
    let slowestMs = 0;
    const loop = async (worker: number) => {
      for (let i = 0; !stop; i++) {
        const key = keys[(worker * 7 + i) % keys.length]!.key;
        const started = Date.now();
        const res = await call(worker % 2 ? other.baseUrl : app.baseUrl, `/v1/search?location=${CITIES[(worker + i) % CITIES.length]}&limit=3`, key);
        await res.arrayBuffer();
        slowestMs = Math.max(slowestMs, Date.now() - started);
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        await new Promise((r) => setTimeout(r, 25));
      }
    };
    const running = Array.from({ length: 4 }, (_, w) => loop(w));
    await new Promise((r) => setTimeout(r, 500));
    const victim = (await cluster.topology()).find((n) => n.role === 'master' && n.slots.length > 0)!;
    const killedAt = Date.now();
    await cluster.kill(victim.port);
    await cluster.waitHealthy(30_000);
    const promotedAfterMs = Date.now() - killedAt;
    // Every outage a component of a process logged ends, once the failures have settled.
    const lost = () => lines.filter((l) => l.msg.includes(' unavailable: '));
    const back = () => lines.filter((l) => l.msg.endsWith('available again'));
    const until = Date.now() + 15_000;
    while (back().length < lost().length && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    stop = true;
    await Promise.all(running);

    console.info(
      `failover: replica promoted ${promotedAfterMs} ms after the kill; statuses ${JSON.stringify(Object.fromEntries(statuses))}; slowest call ${slowestMs} ms; ` +
        back().map((l) => `${l.proc}: ${l.msg.split(' (')[0]} fell back for ${l.downForMs} ms, ${l.failures} ops`).join('; '),
    );
    expect([...statuses.keys()].filter((s) => s !== 200)).toEqual([]);
    const summary = (ls: typeof lines) => ls.map((l) => `${l.proc} ${l.msg}`).sort();
    // One line when the fallback starts and one when it ends, per process and component: no flapping while a third of the slots fail.
    expect(summary(lost())).toEqual([...new Set(summary(lost()))]);
    expect(summary(back()).map((m) => m.replace('available again', ''))).toEqual(summary(lost()).map((m) => m.replace(/unavailable: .*/, '')));
    // The killed master held buckets and cache entries of this traffic: both fell back somewhere.
    expect(lost().some((l) => l.msg.startsWith('rate limiter'))).toBe(true);
    expect(lost().some((l) => l.msg.startsWith('cache'))).toBe(true);
    expect(lines.filter((l) => l.level >= 50)).toEqual([]);

    // After the failover the limits are shared and exact again.
    const { key } = await app.newKey('sandbox');
    const after = await Promise.all(Array.from({ length: 40 }, (_, i) => call(i % 2 ? other.baseUrl : app.baseUrl, '/v1/account', key).then((r) => r.status)));
    expect(after.filter((s) => s === 200)).toHaveLength(30);
  }, 60_000);
});

describe('a start pointed at no cluster', () => {
  it('stops with redis_unreachable, whether nothing listens or the node is not in cluster mode', async () => {
    const single = await startRedis();
    try {
      for (const port of [await freePort(), Number(new URL(single.url).port)]) {
        const failure = await connectConfiguredRedis({ redisUrl: null, redisClusterNodes: [{ host: '127.0.0.1', port }] }).catch((err: unknown) => err);
        expect(failure).toMatchObject({ code: 'redis_unreachable', message: expect.stringMatching(/^REDIS_CLUSTER_NODES: /), hint: expect.stringContaining('cluster-enabled yes') });
      }
    } finally {
      await single.stop();
    }
  });
});

describe('the whole cluster down', () => {
  it('keeps the promise of a Redis outage: cache misses, limits per process, no error answer; back on Redis once it returns', async () => {
    const { key } = await app.newKey('sandbox');
    const path = '/v1/search?location=Avignon&limit=3';
    expect(((await (await call(app.baseUrl, path, key)).json()) as { meta: { cached: boolean } }).meta.cached).toBe(false);
    expect(((await (await call(app.baseUrl, path, key)).json()) as { meta: { cached: boolean } }).meta.cached).toBe(true);
    const before = lines.length;
    await Promise.all(cluster.ports.map((p) => cluster.kill(p)));

    const answers: { status: number; cached?: boolean }[] = [];
    for (let i = 0; i < 35; i++) {
      const res = await call(app.baseUrl, path, key);
      const body = (await res.json()) as { meta?: { cached: boolean } };
      answers.push({ status: res.status, cached: body.meta?.cached });
    }
    // 2 calls went through Redis; this process's own bucket then admits its 30 and refuses the rest.
    expect(answers.filter((a) => a.status === 200)).toHaveLength(30);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(5);
    expect(answers.filter((a) => a.status === 200).every((a) => a.cached === false)).toBe(true);
    const down = lines.slice(before).filter((l) => l.proc === 'a' && l.level >= 40).map((l) => l.msg);
    expect(down.sort()).toEqual(['cache (Redis) unavailable: every lookup is a miss', 'rate limiter (Redis) unavailable: using in-process buckets']);

    cluster.ports.forEach((p) => cluster.restart(p));
    await cluster.waitHealthy(30_000);
    const { key: fresh } = await app.newKey('sandbox');
    const until = Date.now() + 20_000;
    const backA = () => lines.slice(before).filter((l) => l.proc === 'a' && l.msg.endsWith('available again'));
    while (backA().length < 2 && Date.now() < until) {
      await (await call(app.baseUrl, '/v1/search?location=Arles&limit=1', fresh)).arrayBuffer();
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(backA().map((l) => l.msg).sort()).toEqual(['cache (Redis) available again', 'rate limiter (Redis) available again']);
    expect(lines.filter((l) => l.level >= 50)).toEqual([]);
  }, 60_000);
});
