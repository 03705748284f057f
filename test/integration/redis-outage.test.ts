import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRedis } from '../../src/adapters/redis/client.js';
import { startTestApp, type TestApp } from '../support/app.js';

/** A Redis server of the test's own, so it can be killed mid-run without touching anyone else's. */
let redisServer: ChildProcess;
let app: TestApp;

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise((r) => s.close(r));
  return port;
}

beforeAll(async () => {
  const port = await freePort();
  redisServer = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  let redis;
  for (let i = 0; i < 50 && !redis; i++) {
    redis = await connectRedis(`redis://127.0.0.1:${port}`).catch(async () => void (await new Promise((r) => setTimeout(r, 100))));
  }
  app = await startTestApp({ redis: redis! });
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
});
