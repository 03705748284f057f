import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { expectError } from '../support/common-rules.js';
import { fakePlatforms, type FakePlatforms } from '../support/fake-platforms.js';

/** Billing of live keys end to end: HTTP -> pipeline -> legs (fake platforms) -> ledger in PostgreSQL. */
let app: TestApp;
let fake: FakePlatforms;
beforeAll(async () => {
  fake = fakePlatforms();
  app = await startTestApp({ platforms: { live: fake.adapters }, config: { legDeadlineMs: 400, breakerMinCalls: 3, breakerHalfOpenMs: 300 } });
});
beforeEach(() => fake.reset());
afterAll(() => app.close());

async function ledgerOf(accountId: string) {
  return app.sql<{ entry_key: string; amount: string }[]>`select entry_key, amount::text from credit_ledger where account_id = ${accountId} and entry_key like 'req:%'`;
}

describe('credits for live keys', () => {
  it('lets exactly the affordable ones of 50 concurrent billed calls through', async () => {
    const { key, accountId } = await app.newKey('live', { plan: 'scale', credits: 60 });
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) => app.get(`/v1/search?location=Lisbon&platforms=airbnb&limit=${1 + (i % 5)}`, key)),
    );
    const ok = responses.filter((r) => r.status === 200);
    const refused = responses.filter((r) => r.status === 402);
    expect([ok.length, refused.length]).toEqual([12, 38]);
    expect(await app.balanceOf(accountId)).toBe(0);
    const rows = await ledgerOf(accountId);
    expect(rows.reduce((s, r) => s + Number(r.amount), 0)).toBe(-60);
    expect(new Set(rows.map((r) => r.entry_key)).size).toBe(12);
    const metas = await Promise.all(ok.map(async (r) => ((await r.json()) as { meta: { requestId: string; creditsCharged: number } }).meta));
    expect(metas.every((m) => m.creditsCharged === 5)).toBe(true);
    expect(new Set(rows.map((r) => r.entry_key))).toEqual(new Set(metas.map((m) => `req:${m.requestId}`)));
    for (const r of refused.slice(0, 3)) await expectError(r, 402, 'credit_balance_too_low');
  });

  it('charges only the legs that returned items', async () => {
    const { key, accountId } = await app.newKey('live', { credits: 100 });
    fake.set('vrbo', { mode: 'fail' });
    fake.set('google', { mode: 'blocked' });
    fake.set('booking', { mode: 'empty' });
    const res = await app.get('/v1/search?location=Porto&platforms=airbnb,booking,vrbo,google', key);
    const body = (await res.json()) as { meta: { creditsCharged: number; partial: boolean; platformResults: { platform: string; status: string; creditsCharged: number }[] } };
    expect(body.meta.partial).toBe(true);
    expect(body.meta.platformResults.map((r) => [r.platform, r.status, r.creditsCharged])).toEqual([
      ['airbnb', 'ok', 5], ['booking', 'empty', 0], ['vrbo', 'failed', 0], ['google', 'blocked', 0],
    ]);
    expect(body.meta.creditsCharged).toBe(5);
    expect(await app.balanceOf(accountId)).toBe(95);
  });

  it('answers 503 at no cost when every leg fails, and cuts hung legs at their deadline', async () => {
    const { key, accountId } = await app.newKey('live', { credits: 100 });
    fake.set('airbnb', { mode: 'hang' });
    fake.set('booking', { mode: 'fail' });
    const started = Date.now();
    const err = await expectError(await app.get('/v1/search?location=Prague&platforms=airbnb,booking', key), 503, 'upstream_unavailable');
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(err.message).toContain('airbnb: timeout');
    expect(await app.balanceOf(accountId)).toBe(100);
    expect(await ledgerOf(accountId)).toEqual([]);
  });

  it('does not charge for an empty answer, and warns', async () => {
    const { key, accountId } = await app.newKey('live', { credits: 100 });
    const body = (await (await app.get('/v1/search?location=Atlantis&platforms=airbnb,vrbo', key)).json()) as { meta: { creditsCharged: number; warnings: { code: string }[] } };
    expect(body.meta.creditsCharged).toBe(0);
    expect(body.meta.warnings.map((w) => w.code)).toContain('no_results');
    expect(await app.balanceOf(accountId)).toBe(100);
  });

  it('bills a second identical call served from cache, flagged cached', async () => {
    const { key, accountId } = await app.newKey('live', { credits: 100 });
    const path = '/v1/price?platform=vrbo&listingId=6000003&checkIn=2030-03-01&checkOut=2030-03-04';
    const first = (await (await app.get(path, key)).json()) as { meta: { cached: boolean; creditsCharged: number } };
    const callsAfterFirst = fake.calls();
    const second = (await (await app.get(path, key)).json()) as { meta: { cached: boolean; creditsCharged: number } };
    expect([first.meta.cached, second.meta.cached]).toEqual([false, true]);
    expect([first.meta.creditsCharged, second.meta.creditsCharged]).toEqual([1, 1]);
    expect(fake.calls()).toBe(callsAfterFirst);
    expect(await app.balanceOf(accountId)).toBe(98);
  });

  it('refuses before any upstream work when the largest possible cost exceeds the balance', async () => {
    const { key, accountId } = await app.newKey('live', { credits: 14 });
    const before = fake.calls();
    const err = await expectError(await app.get('/v1/search?location=Lisbon&platforms=airbnb,booking,vrbo', key), 402, 'credit_balance_too_low');
    expect(err.message).toContain('15');
    expect(fake.calls()).toBe(before);
    expect(await app.balanceOf(accountId)).toBe(14);
  });

  it('needs a verified e-mail for calls that use credits, not for the account', async () => {
    const { key } = await app.newKey('live', { credits: 100, verified: false });
    const err = await expectError(await app.get('/v1/listing/airbnb/40000012', key), 403, 'permission_denied');
    expect(err.subCode).toBe('email_unverified');
    expect((await app.get('/v1/account', key)).status).toBe(200);
  });

  it('answers 429 before any credit logic, at no cost', async () => {
    const { key, accountId } = await app.newKey('live', { credits: 100 });
    for (let i = 0; i < 30; i++) expect((await app.get('/v1/account', key)).status).toBe(200);
    const res = await app.get('/v1/search?location=Lisbon&platforms=airbnb', key);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    await expectError(res, 429, 'rate_limit_exceeded');
    expect(await app.balanceOf(accountId)).toBe(100);
  });

  it('opens a platform breaker after repeated failures: its legs then fail at once, for free', async () => {
    const { key, accountId } = await app.newKey('live', { plan: 'scale', credits: 100 });
    const other = await app.newKey('live', { plan: 'scale', credits: 100 });
    fake.set('vrbo', { mode: 'fail' });
    // Failures from two accounts (one account's alone never open it: circuit-breaker.test.ts),
    // until a leg is refused without reaching the platform.
    let before = fake.calls();
    let open: Response | null = null;
    for (let i = 0; i < 20 && !open; i++) {
      before = fake.calls();
      const res = await app.get(`/v1/listing/vrbo/${6000010 + i}`, i % 2 ? other.key : key);
      if (fake.calls() === before) open = res;
    }
    expect(open).not.toBeNull();
    expect((await expectError(open!, 503, 'upstream_unavailable')).message).toContain('vrbo: failed (circuit_open)');
    fake.reset();
    await new Promise((r) => setTimeout(r, 350));
    expect((await app.get('/v1/listing/vrbo/6000021', key)).status).toBe(200);
    expect(fake.calls()).toBe(before + 1);
    expect(await app.balanceOf(accountId)).toBe(99);
  });
});
