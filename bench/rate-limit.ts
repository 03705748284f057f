/**
 * 5. What the rate limiter adds, two ways, each against a no-op limiter in alternating rounds:
 *
 * - `limiter.take` timed directly, one call at a time: the in-process token bucket and the Redis
 *   one (the Lua script on the Redis at REDIS_URL or 127.0.0.1:6379).
 * - end to end: the same cached sandbox search, one request at a time, with the service's
 *   limiter swapped between a no-op, the in-process bucket and the Redis bucket.
 *
 * Goal: added p50 <= 0.5 ms.
 *   npx tsx bench/rate-limit.ts        (needs PostgreSQL on 5432 and Redis on 6379)
 */
import { randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { connectRedis } from '../src/adapters/redis/client.js';
import { createRedisRateLimiter } from '../src/adapters/redis/rate-limiter.js';
import { createMemoryRateLimiter } from '../src/adapters/memory/rate-limiter.js';
import { systemClock } from '../src/adapters/system/clock.js';
import { createOutageLog } from '../src/adapters/system/outage-log.js';
import type { RateLimiter } from '../src/domain/ports/rate-limits.js';
import { bearer, expectStatuses, interleave, load, median, ms, pct, progress, row, scenarioMain, startBenchApp, noopLimiter, unlimited, type Row } from './support.js';

const ROUNDS = 5;
const DIRECT_CALLS = 2_000;
const E2E_CALLS = 200;
const E2E_ROUNDS = 7;
const GOAL_MS = 0.5;
const PATH = '/v1/search?location=Lisbon&limit=20';

/** Times `calls` sequential takes on a few buckets (as many keys would); milliseconds each. */
async function timeTakes(limiter: RateLimiter, calls: number): Promise<number[]> {
  const prefix = `bench:${randomUUID()}`;
  const out: number[] = [];
  for (let i = 0; i < calls; i++) {
    const started = performance.now();
    const d = await limiter.take(`${prefix}:${i % 16}`, 1_000_000_000);
    out.push(performance.now() - started);
    if (!d.allowed) throw new Error('limiter refused a benchmark call');
  }
  return out;
}

export async function run(): Promise<Row[]> {
  const redis = await connectRedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  const memory = createMemoryRateLimiter(systemClock);
  let fallbacks = 0;
  const redisLimiter = createRedisRateLimiter(redis, { take: (b, c) => (fallbacks++, memory.take(b, c)) }, createOutageLog(pino({ level: 'silent' }), systemClock, 'redis', 'in-process buckets'));
  const noop = noopLimiter();
  const app = await startBenchApp();
  try {
    // Direct: take() alone.
    await timeTakes(memory, 500);
    await timeTakes(redisLimiter, 500);
    const direct = await interleave(ROUNDS, {
      noop: async () => pct(await timeTakes(noop, DIRECT_CALLS), 50),
      memory: async () => pct(await timeTakes(memory, DIRECT_CALLS), 50),
      redis: async () => pct(await timeTakes(redisLimiter, DIRECT_CALLS), 50),
    });

    // End to end: the limiter of the running service swapped between rounds.
    const { key } = await app.newKey('sandbox');
    const target = { url: `${app.baseUrl}${PATH}`, headers: bearer(key) };
    const withLimiter = (limiter: RateLimiter) => async () => {
      app.deps.limiter = limiter;
      return pct(expectStatuses(await load({ kind: 'sequential', count: E2E_CALLS, ...target }), '200', 'search').latencies, 50);
    };
    await withLimiter(unlimited(redisLimiter))();
    const e2e = await interleave(E2E_ROUNDS, { noop: withLimiter(noop), memory: withLimiter(unlimited(memory)), redis: withLimiter(unlimited(redisLimiter)) });
    if (fallbacks > 0) throw new Error(`the Redis limiter fell back to in-process buckets ${fallbacks} times: Redis did not answer`);

    const show = (r: Record<string, number[]>) => Object.entries(r).map(([k, v]) => `${k} ${v.map((x) => x.toFixed(3)).join('/')}`).join('; ');
    progress(`rate-limit: take() p50 per round: ${show(direct)}`);
    progress(`rate-limit: search p50 per round: ${show(e2e)}`);
    const added = (r: Record<string, number[]>, name: string) => median(r[name]!.map((x, i) => x - r.noop![i]!));
    const scenario = '5 rate limiter';
    const rows: Row[] = [];
    for (const [name, label] of [['memory', 'in-process'], ['redis', 'Redis Lua']] as const) {
      const d = added(direct, name);
      rows.push(row(scenario, `${label} take(), p50`, ms(median(direct[name]!)), `no-op take() p50 ${ms(median(direct.noop!))}`, `+${ms(d)} (goal <= +${GOAL_MS} ms)`, d <= GOAL_MS));
    }
    for (const [name, label] of [['memory', 'in-process'], ['redis', 'Redis Lua']] as const) {
      const d = added(e2e, name);
      rows.push(row(scenario, `cached search with ${label} limiter, p50`, ms(median(e2e[name]!)), `no-op limiter p50 ${ms(median(e2e.noop!))}`, `${d >= 0 ? '+' : ''}${ms(d)} (goal <= +${GOAL_MS} ms)`, d <= GOAL_MS));
    }
    return rows;
  } finally {
    await app.close();
    redis.disconnect();
  }
}

await scenarioMain(import.meta.url, run);
