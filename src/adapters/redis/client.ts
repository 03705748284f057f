import { Redis } from 'ioredis';

/**
 * A Redis connection that fails fast instead of queueing (stack-notes 5, pitfall 18): with the
 * offline queue off and one retry, a command errors within milliseconds while Redis is down or
 * paused, and the callers fall back (cache: miss; limiter: in-process bucket).
 */
export async function connectRedis(url: string): Promise<Redis> {
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: 250,
    connectTimeout: 2_000,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
    lazyConnect: true,
  });
  redis.on('error', () => {}); // reported by the commands that fail; reconnects on its own
  await redis.connect();
  return redis;
}
