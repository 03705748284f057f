import type { RedisClient } from './client.js';
import type { Cache } from '../../domain/ports/caching.js';
import type { OutageLog } from '../system/outage-log.js';

/**
 * The shared cache, on one Redis node or a Redis Cluster. Every operation is a single-key GET or
 * SET, so on a cluster each entry simply lives in its key's own slot (no hash tag): entries spread
 * over every master, and no command ever spans two slots. It fails open: a Redis error is a miss
 * (get) or a skipped write (set). The outage is logged when it starts, once a minute and when it
 * ends, not per operation.
 */
export function createRedisCache(redis: RedisClient, outage: OutageLog): Cache {
  return {
    async get(key) {
      try {
        const value = await redis.get(key);
        outage.succeeded();
        return value;
      } catch (err) {
        outage.failed(err);
        return null;
      }
    },
    async set(key, value, ttlMs) {
      try {
        await redis.set(key, value, 'PX', ttlMs);
        outage.succeeded();
      } catch (err) {
        outage.failed(err);
      }
    },
  };
}
