import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRedis } from '../../src/adapters/redis/client.js';
import { startTestApp, type TestApp } from '../support/app.js';

/** A Redis server of the test's own, so it can be killed mid-run without touching anyone else's. */
let redisServer: ChildProcess;
let redisPort: number;
let app: TestApp;
const lines: { msg: string; level: number }[] = [];

function startRedisServer(port: number): ChildProcess {
  return spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
}

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise((r) => s.close(r));
  return port;
}

beforeAll(async () => {
  const port = (redisPort = await freePort());
  redisServer = startRedisServer(port);
  let redis;
  for (let i = 0; i < 50 && !redis; i++) {
    redis = await connectRedis(`redis://127.0.0.1:${port}`).catch(async () => void (await new Promise((r) => setTimeout(r, 100))));
  }
  const log = pino({ level: 'info' }, { write: (l: string) => void lines.push(JSON.parse(l) as { msg: string; level: number }) });
  app = await startTestApp({ redis: redis!, log });
});
afterAll(async () => {
  redisServer.kill('SIGKILL');
  await app.close();
});

describe('Redis stopped mid-run', () => {
  it('keeps answering: the cache fails open, rate limits fall back to in-process buckets, no 500', async () => {
    const { key } = await app.newKey('sandbox');
    const first = await app.get('/v1/search?location=Rome&limit=3', key);
    expect(first.status).toBe(200);
    const cached = (await (await app.get('/v1/search?location=Rome&limit=3', key)).json()) as { meta: { cached: boolean } };
    expect(cached.meta.cached).toBe(true);

    redisServer.kill('SIGKILL');
    await new Promise((r) => setTimeout(r, 100));

    const statuses: number[] = [];
    for (let i = 0; i < 35; i++) {
      const res = await app.get('/v1/search?location=Rome&limit=3', key);
      statuses.push(res.status);
      expect(res.headers.get('x-ratelimit-limit')).toBe('30');
      const body = (await res.json()) as { meta?: { cached: boolean } };
      if (res.status === 200) expect(body.meta!.cached).toBe(false); // a miss, never stale or shared data
    }
    expect(statuses).not.toContain(500);
    // 2 calls went through Redis; the in-process bucket then admits its own 30 and refuses the rest
    expect(statuses.filter((s) => s === 200)).toHaveLength(30);
    expect(statuses.filter((s) => s === 429)).toHaveLength(5);
  });

  it('logs the loss once per component while it lasts, and once when Redis is back', async () => {
    const warnings = () => lines.filter((l) => l.level === 40).map((l) => l.msg);
    expect(warnings().filter((m) => m.startsWith('cache (Redis)'))).toEqual(['cache (Redis) unavailable: every lookup is a miss']);
    expect(warnings().filter((m) => m.startsWith('rate limiter (Redis)'))).toEqual(['rate limiter (Redis) unavailable: using in-process buckets']);

    redisServer = startRedisServer(redisPort);
    const { key } = await app.newKey('sandbox');
    const until = Date.now() + 15_000;
    while (!warnings().includes('cache (Redis) available again') || !warnings().includes('rate limiter (Redis) available again')) {
      if (Date.now() > until) throw new Error(`Redis never logged as back: ${JSON.stringify(warnings())}`);
      await (await app.get('/v1/search?location=Porto&limit=1', key)).text();
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(warnings().filter((m) => m.includes('available again'))).toHaveLength(2);
  }, 30_000);
});
