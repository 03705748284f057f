import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

/**
 * Issue 23: console procedures are rate-limited per session and per account, so one tab in a loop,
 * or many sessions of one account, cannot run the console's heavy reads without end. Small
 * buckets for the test.
 */
let app: TestApp;

beforeAll(async () => {
  app = await startTestApp({ config: { consoleLimits: { perSession: 3, perAccount: 5 } } });
  await app.deps.admin.createAccount({ email: 'busy@example.com', plan: 'free', credits: 0, verified: true, password: 'busy password 1' });
  await app.deps.admin.createAccount({ email: 'calm@example.com', plan: 'free', credits: 0, verified: true, password: 'calm password 1' });
});
afterAll(() => app.close());

async function session(email: string, password: string): Promise<{ cookie: string; csrf: string }> {
  const res = await fetch(`${app.baseUrl}/console/session`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email, password }) });
  expect(res.status).toBe(200);
  return { cookie: res.headers.get('set-cookie')!.split(';')[0]!, csrf: ((await res.json()) as { csrf: string }).csrf };
}

const overview = (s: { cookie: string; csrf: string }) => fetch(`${app.baseUrl}/console/trpc/console.overview`, { headers: { Cookie: s.cookie, 'X-CSRF-Token': s.csrf } });

describe('console rate limits', () => {
  it('limit each session, then the account across its sessions, and leave other accounts alone', async () => {
    const first = await session('busy@example.com', 'busy password 1');
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await overview(first)).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const limited = await overview(first);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);

    // A second session of the same account has its own bucket, but shares the account's (5).
    const second = await session('busy@example.com', 'busy password 1');
    const more: number[] = [];
    for (let i = 0; i < 3; i++) more.push((await overview(second)).status);
    expect(more).toEqual([200, 200, 429]);

    const other = await session('calm@example.com', 'calm password 1');
    expect((await overview(other)).status).toBe(200);
  });
});
