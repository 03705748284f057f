import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Cache } from '../../domain/service-ports.js';

/** The shared cache. It fails open: a Redis error is a miss (get) or a skipped write (set). */
export function createRedisCache(redis: Redis, log: Logger): Cache {
  return {
    async get(key) {
      try {
        return await redis.get(key);
      } catch (err) {
        log.warn({ err: String(err) }, 'cache unavailable: treating as a miss');
        return null;
      }
    },
    async set(key, value, ttlMs) {
      try {
        await redis.set(key, value, 'PX', ttlMs);
      } catch (err) {
        log.warn({ err: String(err) }, 'cache unavailable: result not cached');
      }
    },
  };
}
