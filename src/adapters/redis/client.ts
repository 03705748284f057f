import { Cluster, Redis } from 'ioredis';
import { OperatorError } from '../../domain/errors.js';

/**
 * One Redis node or a Redis Cluster: both answer the commands the cache and the rate limiter send
 * (GET, SET PX, and one Lua script per bucket, each touching a single key), so the adapters take
 * either.
 */
export type RedisClient = Redis | Cluster;

export interface RedisNode {
  host: string;
  port: number;
}

/**
 * Options shared by a single node and by every node of a cluster: fail fast instead of queueing
 * (stack-notes 5, pitfall 18). With one retry and a 250 ms command timeout, a command errors
 * within milliseconds while Redis is down or paused, and the callers fall back (cache: miss;
 * limiter: in-process bucket).
 */
const FAIL_FAST = { maxRetriesPerRequest: 1, commandTimeout: 250, connectTimeout: 2_000 } as const;

/** A single Redis node (REDIS_URL). */
export async function connectRedis(url: string): Promise<Redis> {
  const redis = new Redis(url, {
    ...FAIL_FAST,
    enableOfflineQueue: false,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
    lazyConnect: true,
  });
  redis.on('error', () => {}); // reported by the commands that fail; reconnects on its own
  // A first connection that fails leaves no client retrying behind the caller's back.
  await redis.connect().catch((err: unknown) => {
    redis.disconnect();
    throw err;
  });
  return redis;
}

/**
 * A Redis Cluster (REDIS_CLUSTER_NODES) through ioredis' cluster client, which follows MOVED and
 * ASK redirections and refreshes its slot map by itself. Bounded so that a failover never makes a
 * request wait long: a command to a master that just died is retried on the refreshed slot map
 * every 100 ms at most 3 times, then fails and the caller falls back, until the replica is
 * promoted (after the cluster's `cluster-node-timeout`). Reads and writes go to
 * masters only: the limiter's buckets must be read where they are written, and a cache entry
 * read from a replica may not have arrived there yet (a miss is a platform call); to spread the
 * cache's bytes, add masters.
 */
export async function connectRedisCluster(nodes: readonly RedisNode[]): Promise<Cluster> {
  const cluster = new Cluster(
    nodes.map((n) => ({ host: n.host, port: n.port })),
    {
      scaleReads: 'master',
      // While the cluster client itself is (re)connecting, commands fail at once instead of waiting.
      enableOfflineQueue: false,
      // A redirection (MOVED, ASK) takes one hop, two while a slot migrates; a dead master takes
      // one retry per attempt: 3 keep a failing command to about 300 ms.
      maxRedirections: 3,
      retryDelayOnFailover: 100,
      retryDelayOnClusterDown: 100,
      retryDelayOnTryAgain: 100,
      retryDelayOnMoved: 0,
      // Learn of a promotion even while no command happens to hit the failed slots.
      slotsRefreshInterval: 5_000,
      slotsRefreshTimeout: 1_000,
      clusterRetryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
      lazyConnect: true,
      // Each slot-map refresh opens a short connection; CLIENT SETINFO on it is an error (counted
      // in INFO errorstats) on Redis before 7.2, so the cluster's connections do not send it.
      redisOptions: { ...FAIL_FAST, disableClientInfo: true },
    },
  );
  cluster.on('error', () => {}); // reported by the commands that fail; reconnects on its own
  cluster.on('node error', () => {});
  await cluster.connect().catch((err: unknown) => {
    cluster.disconnect();
    throw err;
  });
  return cluster;
}

/**
 * The configured Redis, if any: a cluster when REDIS_CLUSTER_NODES is set, else REDIS_URL's node.
 * A start that cannot reach it stops with `redis_unreachable` (a node that is not in cluster mode
 * answers a cluster client like no node at all).
 */
export async function connectConfiguredRedis(config: { redisUrl: string | null; redisClusterNodes: readonly RedisNode[] | null }): Promise<RedisClient | undefined> {
  const setting = config.redisClusterNodes ? 'REDIS_CLUSTER_NODES' : 'REDIS_URL';
  try {
    if (config.redisClusterNodes) return await connectRedisCluster(config.redisClusterNodes);
    if (config.redisUrl) return await connectRedis(config.redisUrl);
    return undefined;
  } catch (err) {
    const hint = config.redisClusterNodes
      ? 'check that the nodes answer and run with cluster-enabled yes (for a single Redis, set REDIS_URL instead)'
      : 'check that Redis answers at that URL (for a Redis Cluster, set REDIS_CLUSTER_NODES instead)';
    throw new OperatorError('redis_unreachable', `${setting}: ${err instanceof Error ? err.message : String(err)}`, hint);
  }
}
