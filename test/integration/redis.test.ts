import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryRateLimiter } from '../../src/adapters/memory/rate-limiter.js';
import { connectRedis } from '../../src/adapters/redis/client.js';
import { createRedisCache } from '../../src/adapters/redis/cache.js';
import { createRedisRateLimiter } from '../../src/adapters/redis/rate-limiter.js';
import { FakeClock } from '../../src/adapters/system/clock.js';
import { createOutageLog } from '../../src/adapters/system/outage-log.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const log = createOutageLog(pino({ level: 'silent' }), new FakeClock(), 'redis', 'falling back');
let redis: Redis;
const ns = () => `test:${randomBytes(6).toString('hex')}`;

beforeAll(async () => {
  redis = await connectRedis(REDIS_URL);
});
afterAll(async () => {
  await redis.quit();
});

describe('Redis token bucket', () => {
  it('admits exactly the capacity of 200 simultaneous requests on a fresh bucket', async () => {
    const limiter = createRedisRateLimiter(redis, createMemoryRateLimiter(new FakeClock()), log);
    const bucket = ns();
    const decisions = await Promise.all(Array.from({ length: 200 }, () => limiter.take(bucket, 30)));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(30);
    const denied = decisions.find((d) => !d.allowed)!;
    expect(denied).toMatchObject({ limit: 30, remaining: 0 });
    expect(denied.retryAfterMs).toBeGreaterThan(0);
    expect(denied.retryAfterMs).toBeLessThanOrEqual(2_000);
    expect(await redis.pttl(`rl:${bucket}`)).toBeGreaterThan(0);
  });

  it('falls back to in-process buckets when Redis does not answer', async () => {
    const broken = await connectRedis(REDIS_URL);
    broken.disconnect();
    const limiter = createRedisRateLimiter(broken, createMemoryRateLimiter(new FakeClock()), log);
    const bucket = ns();
    const decisions = await Promise.all(Array.from({ length: 10 }, () => limiter.take(bucket, 5)));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(5);
  });
});

describe('Redis cache', () => {
  it('stores with a TTL and fails open when Redis does not answer', async () => {
    const cache = createRedisCache(redis, log);
    const key = ns();
    await cache.set(key, 'value', 60_000);
    expect(await cache.get(key)).toBe('value');
    const ttl = await redis.pttl(key);
    expect(ttl).toBeGreaterThan(59_000);
    const broken = await connectRedis(REDIS_URL);
    broken.disconnect();
    const down = createRedisCache(broken, log);
    expect(await down.get(key)).toBeNull();
    await expect(down.set(key, 'other', 1000)).resolves.toBeUndefined();
  });
});
