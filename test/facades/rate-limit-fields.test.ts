import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../src/adapters/system/clock.js';
import { startTestApp, type TestApp } from '../support/app.js';

/**
 * The current IETF draft's RateLimit and RateLimit-Policy fields beside X-RateLimit-* (spec 8.1),
 * from the same bucket decision, on 200s and 429s of REST and /trpc. A fake clock keeps the
 * seconds-to-reset exact.
 */
const clock = new FakeClock('2027-03-01T09:00:00Z');
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ clock });
});
afterAll(() => app.close());

function expectFields(res: Response, remaining: number, resetSeconds: number): void {
  expect(res.headers.get('x-ratelimit-limit')).toBe('30');
  expect(res.headers.get('x-ratelimit-remaining')).toBe(String(remaining));
  expect(res.headers.get('ratelimit-policy')).toBe('"key";q=30;w=60');
  expect(res.headers.get('ratelimit')).toBe(`"key";r=${remaining};t=${resetSeconds}`);
}

const trpcGet = (key: string) => fetch(`${app.baseUrl}/trpc/account`, { headers: { Authorization: `Bearer ${key}` } });

describe.each([
  ['REST', (key: string) => app.get('/v1/account', key)],
  ['tRPC', trpcGet],
])('RateLimit fields on %s', (_face, call) => {
  it('names the key policy with its quota, window, remaining and reset on a 200 and on the 429', async () => {
    const { key } = await app.newKey('sandbox');
    const first = await call(key);
    expect(first.status).toBe(200);
    expectFields(first, 29, 2); // one token taken, refilled at one per 2 s
    for (let i = 0; i < 29; i++) expect((await call(key)).status).toBe(200);
    const refused = await call(key);
    expect(refused.status).toBe(429);
    expectFields(refused, 0, 60);
    expect(refused.headers.get('retry-after')).toBe('2');
    clock.advance(60_000);
  });
});

describe('RateLimit fields of calls without a valid key', () => {
  it('name the address policy', async () => {
    const res = await app.get('/v1/account', 'svc_test_not_a_key');
    expect(res.status).toBe(401);
    expect(res.headers.get('ratelimit-policy')).toMatch(/^"address";q=\d+;w=60$/);
    expect(res.headers.get('ratelimit')).toMatch(/^"address";r=\d+;t=\d+$/);
  });
});
