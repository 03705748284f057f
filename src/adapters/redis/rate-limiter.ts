import type { RedisClient } from './client.js';
import type { RateDecision, RateLimiter } from '../../domain/ports/rate-limits.js';
import type { OutageLog } from '../system/outage-log.js';

/**
 * Token bucket in one atomic script on Redis time (spec 8.1), so every API process shares exact
 * limits. Same integer arithmetic as the in-process twin: tokens counted in 1/60000ths, refilled by `capacity` units per ms.
 * Returns { allowed, remaining (floored), resetAtMs, retryAfterMs }.
 *
 * The script touches one key, KEYS[1], so it runs on a Redis Cluster as on one node. Bucket names
 * of an account carry its id as a hash tag (`{acct:<id>}`, domain/accounts/rate-buckets.ts): all
 * of one account's buckets share a slot, so a script that takes from several of them at once
 * stays legal on a cluster, while accounts spread over every master.
 */
const TAKE_TOKEN = `
local capacity = tonumber(ARGV[1])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local full = capacity * 60000
local state = redis.call('HMGET', KEYS[1], 'units', 'at')
local units = tonumber(state[1])
local at = tonumber(state[2])
if units == nil or at == nil then units = full; at = now end
units = math.min(full, units + math.max(0, now - at) * capacity)
local allowed = 0
if units >= 60000 then units = units - 60000; allowed = 1 end
redis.call('HSET', KEYS[1], 'units', units, 'at', now)
local full_in = math.ceil((full - units) / capacity)
redis.call('PEXPIRE', KEYS[1], full_in + 1000)
local retry = 0
if allowed == 0 then retry = math.ceil((60000 - units) / capacity) end
return { allowed, math.floor(units / 60000), now + full_in, retry }
`;

type WithTakeToken = RedisClient & { takeToken(key: string, capacity: number): Promise<number[]> };

export function createRedisRateLimiter(redis: RedisClient, fallback: RateLimiter, outage: OutageLog): RateLimiter {
  // defineCommand sends EVALSHA and reloads the script on NOSCRIPT by itself.
  if (!('takeToken' in redis)) redis.defineCommand('takeToken', { numberOfKeys: 1, lua: TAKE_TOKEN });
  const client = redis as WithTakeToken;
  return {
    async take(bucket, capacity): Promise<RateDecision> {
      try {
        const [allowed, remaining, resetAtMs, retryAfterMs] = await client.takeToken(`rl:${bucket}`, capacity);
        outage.succeeded();
        return { allowed: allowed === 1, limit: capacity, remaining: remaining!, resetAtMs: resetAtMs!, retryAfterMs: retryAfterMs! };
      } catch (err) {
        // Documented policy: with Redis down, limits hold per process rather than not at all.
        outage.failed(err);
        return fallback.take(bucket, capacity);
      }
    },
  };
}
