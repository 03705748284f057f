import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { fakePlatforms, type FakePlatforms } from '../support/fake-platforms.js';

/**
 * Issue 18: what a billed request leaves for the console (platforms, per-platform credits,
 * outcome, key), the usage split and request filters over it, the key's last use, the console
 * procedures refused on every other face, and expired sessions swept.
 */
let app: TestApp;
let fake: FakePlatforms;
let accountId: string;
let key: string;
let keyId: string;
let s: { cookie: string; csrf: string };

const call = async <T>(path: string, input?: unknown): Promise<{ status: number; body: T }> => {
  const query = input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`;
  const res = await fetch(`${app.baseUrl}/console/trpc/console.${path}${query}`, { headers: { Cookie: s.cookie, 'X-CSRF-Token': s.csrf } });
  return { status: res.status, body: (await res.json()) as T };
};
type Rows<T> = { result: { data: T } };
interface BilledRow { requestId: string; kind: string; operation: string; platforms: string[]; status: string | null; credits: number }

async function signIn(): Promise<{ cookie: string; csrf: string }> {
  const res = await fetch(`${app.baseUrl}/console/session`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email: 'cy@example.com', password: 'cy password 1' }) });
  expect(res.status).toBe(200);
  return { cookie: res.headers.get('set-cookie')!.split(';')[0]!, csrf: ((await res.json()) as { csrf: string }).csrf };
}

beforeAll(async () => {
  fake = fakePlatforms();
  app = await startTestApp({ platforms: { live: fake.adapters } });
  ({ accountId } = await app.deps.admin.createAccount({ email: 'cy@example.com', plan: 'starter', credits: 1000, verified: true, password: 'cy password 1' }));
  ({ key, keyId } = await app.deps.admin.createKey(accountId, 'live'));
  s = await signIn();
});
afterAll(() => app?.close());

describe('billed requests in the console', () => {
  let partialId: string;
  let completeId: string;

  it('a debit records the platforms asked, what each cost, the outcome and the key', async () => {
    fake.set('vrbo', { mode: 'fail' });
    const partial = await app.get('/v1/search?location=Lisbon&platforms=airbnb,vrbo,booking', key);
    fake.reset();
    expect(partial.status).toBe(200);
    const meta = ((await partial.json()) as { meta: { requestId: string; partial: boolean; creditsCharged: number; platformResults: { platform: string; creditsCharged: number }[] } }).meta;
    expect(meta.partial).toBe(true);
    partialId = meta.requestId;
    const [row] = await app.sql<{ platforms: string[]; platform_credits: number[]; status: string; key_id: string; amount: string }[]>`
      select platforms, platform_credits, status, key_id, amount::text from credit_ledger where entry_key = ${`req:${partialId}`}`;
    expect(row).toMatchObject({ platforms: meta.platformResults.map((r) => r.platform), platform_credits: meta.platformResults.map((r) => r.creditsCharged), status: 'partial', key_id: keyId, amount: String(-meta.creditsCharged) });
    expect(row!.platform_credits[row!.platforms.indexOf('vrbo')]).toBe(0);

    const complete = await app.get('/v1/price?platform=airbnb&listingId=40000012&checkIn=2031-05-01&checkOut=2031-05-04', key);
    expect(complete.status).toBe(200);
    completeId = ((await complete.json()) as { meta: { requestId: string } }).meta.requestId;
    const [second] = await app.sql<{ status: string; platforms: string[] }[]>`select status, platforms from credit_ledger where entry_key = ${`req:${completeId}`}`;
    expect(second).toEqual({ status: 'complete', platforms: ['airbnb'] });
  });

  it('usage splits the same credits by operation and by platform', async () => {
    const { body } = await call<Rows<{ byOperation: { operation: string; credits: number }[]; byPlatform: { platform: string; credits: number }[] }>>('usage');
    const [{ spent }] = await app.sql<[{ spent: string }]>`select (-sum(amount))::text as spent from credit_ledger where account_id = ${accountId} and amount < 0`;
    const sum = (xs: { credits: number }[]) => xs.reduce((a, x) => a + x.credits, 0);
    expect(sum(body.result.data.byOperation)).toBe(Number(spent));
    expect(sum(body.result.data.byPlatform)).toBe(Number(spent));
    expect(new Set(body.result.data.byOperation.map((r) => r.operation))).toEqual(new Set(['search', 'price']));
    const platforms = new Set(body.result.data.byPlatform.map((r) => r.platform));
    expect(platforms.has('airbnb') && platforms.has('booking')).toBe(true);
    expect(platforms.has('vrbo')).toBe(false); // it failed, so it cost nothing
  });

  it('recent requests show platforms and outcome, filtered by operation, platform and status', async () => {
    const ids = async (input: object) => {
      const { status, body } = await call<Rows<BilledRow[]>>('requests', input);
      expect(status).toBe(200);
      return body.result.data.map((r) => r.requestId);
    };
    const all = (await call<Rows<BilledRow[]>>('requests', {})).body.result.data;
    expect(all.map((r) => r.requestId)).toEqual([completeId, partialId]); // newest first
    expect(all[1]).toMatchObject({ kind: 'request', operation: 'search', status: 'partial', platforms: expect.arrayContaining(['airbnb', 'vrbo', 'booking']) });
    expect(await ids({ platform: 'vrbo' })).toEqual([partialId]);
    expect(await ids({ status: 'partial' })).toEqual([partialId]);
    expect(await ids({ status: 'complete', operation: 'price', platform: 'airbnb' })).toEqual([completeId]);
    expect(await ids({ platform: 'expedia' })).toEqual([]);
    for (const [field, value] of [['platform', 'ebay'], ['status', 'failed'], ['operation', 'book']] as const) {
      const bad = await call<{ error: { data: { httpStatus: number; apiError: { error: { param: string } } } } }>('requests', { [field]: value });
      expect(bad.status).toBe(400);
      expect(bad.body.error.data.apiError.error.param).toBe(field);
    }
  });

  it('lists each key with its last use; an unused key has none', async () => {
    const unused = await app.deps.admin.createKey(accountId, 'sandbox');
    // Recorded without waiting for it: it lands shortly after the request that used the key.
    await vi.waitFor(async () => {
      const { body } = await call<Rows<{ keyId: string; lastUsedAt: string | null }[]>>('keys');
      expect(body.result.data.find((k) => k.keyId === keyId)?.lastUsedAt).not.toBeNull();
    });
    const { body } = await call<Rows<{ keyId: string; lastUsedAt: string | null }[]>>('keys');
    expect(body.result.data.find((k) => k.keyId === unused.keyId)?.lastUsedAt).toBeNull();
  });
});

describe('the console part of AppRouter on other faces', () => {
  it('is "not found" on /trpc, even with a valid key, and tells nothing about the account', async () => {
    for (const path of ['console.overview', 'console.keys', 'console.usage']) {
      const res = await app.get(`/trpc/${path}`, key);
      expect(res.status).toBe(404);
      expect(await res.text()).not.toContain('cy@example.com');
    }
    const create = await fetch(`${app.baseUrl}/trpc/console.createKey`, { method: 'POST', headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ env: 'live' }) });
    expect(create.status).toBe(404);
    const [{ n }] = await app.sql<[{ n: string }]>`select count(*)::text as n from api_keys where account_id = ${accountId} and env = 'live'`;
    expect(n).toBe('1');
  });

  it('is the only part /console/trpc serves, and OpenAPI does not publish it', async () => {
    const search = await fetch(`${app.baseUrl}/console/trpc/search?input=${encodeURIComponent(JSON.stringify({ location: 'Lisbon' }))}`, { headers: { Cookie: s.cookie, 'X-CSRF-Token': s.csrf } });
    expect(search.status).toBe(404);
    const doc = (await (await app.get(`/v1/openapi.json`)).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths).some((p) => /console/i.test(p))).toBe(false);
    expect(JSON.stringify(doc)).not.toMatch(/sandboxSearch|revokeKey/);
  });
});

describe('console sessions', () => {
  it('a sign-in sweeps expired sessions, at most 500 at a time, and keeps live ones', async () => {
    const now = app.deps.clock.now();
    await app.sql`insert into console_sessions (token_hash, account_id, csrf, expires_at)
      select 'expired-' || g, ${accountId}, 'x', ${new Date(now.getTime() - 60_000)} from generate_series(1, 600) g`;
    const expired = async () => Number((await app.sql<[{ n: string }]>`select count(*)::text as n from console_sessions where expires_at <= now()`)[0].n);
    expect(await expired()).toBe(600);
    s = await signIn();
    expect(await expired()).toBe(100);
    s = await signIn();
    expect(await expired()).toBe(0);
    expect((await call('overview')).status).toBe(200); // sessions still live are kept
  });
});
