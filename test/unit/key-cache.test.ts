import { describe, expect, it } from 'vitest';
import { cachedKeyStore } from '../../src/adapters/memory/key-cache.js';
import { FakeClock } from '../../src/adapters/system/clock.js';
import type { KeyStore, Principal } from '../../src/domain/ports/accounts.js';

const principal: Principal = { accountId: 'acct_1', keyId: 'key_1', keyPrefix: 'svc_test_abcdef', env: 'sandbox', plan: 'free', subscriptionStatus: 'active', emailVerified: true, balance: 0, rateLimitOverride: null };

function counting(): KeyStore & { calls: number; byId: number; revoked: boolean } {
  const store = {
    calls: 0,
    revoked: false,
    async findByHash(hash: string) {
      store.calls++;
      return hash === 'known' && !store.revoked ? principal : null;
    },
    byId: 0,
    async findById(id: string) {
      store.byId++;
      return id === 'key_1' && !store.revoked ? principal : null;
    },
    findRecentById(id: string) {
      return store.findById(id);
    },
    forAccount: async () => principal,
  };
  return store;
}

describe('cachedKeyStore', () => {
  it('answers repeated lookups from memory for the TTL, then asks again', async () => {
    const clock = new FakeClock();
    const inner = counting();
    const keys = cachedKeyStore(inner, clock, 2_000);
    expect(await keys.findByHash('known')).toEqual(principal);
    expect(await keys.findByHash('known')).toEqual(principal);
    expect(await keys.findByHash('unknown')).toBeNull();
    expect(await keys.findByHash('unknown')).toBeNull();
    expect(inner.calls).toBe(2);
    inner.revoked = true;
    clock.advance(1_999);
    expect(await keys.findByHash('known')).toEqual(principal); // within the TTL
    clock.advance(2);
    expect(await keys.findByHash('known')).toBeNull(); // revocation seen once the entry expires
    expect(inner.calls).toBe(3);
  });

  it('forgets everything at once when a key is revoked in this process', async () => {
    const inner = counting();
    const keys = cachedKeyStore(inner, new FakeClock(), 60_000);
    await keys.findByHash('known');
    inner.revoked = true;
    keys.forget();
    expect(await keys.findByHash('known')).toBeNull();
  });

  it("answers the worker's lookups by id (a burst of one key's jobs) from memory for the TTL, and forgets them too", async () => {
    const clock = new FakeClock();
    const inner = counting();
    const keys = cachedKeyStore(inner, clock, 2_000);
    for (let i = 0; i < 5; i++) expect(await keys.findRecentById('key_1')).toEqual(principal);
    expect(inner.byId).toBe(1);
    clock.advance(2_001);
    expect(await keys.findRecentById('key_1')).toEqual(principal);
    expect(inner.byId).toBe(2);
    inner.revoked = true;
    keys.forget();
    expect(await keys.findRecentById('key_1')).toBeNull();
  });

  it('reads findById from the store every time: GET /account shows the balance as it is now', async () => {
    const inner = counting();
    const keys = cachedKeyStore(inner, new FakeClock(), 2_000);
    await keys.findRecentById('key_1');
    for (let i = 0; i < 3; i++) await keys.findById('key_1');
    expect(inner.byId).toBe(4);
  });

  it('shares one lookup among lookups of one key at the same moment, and keeps no failed lookup', async () => {
    const inner = counting();
    const keys = cachedKeyStore(inner, new FakeClock(), 2_000);
    await Promise.all([keys.findRecentById('key_1'), keys.findRecentById('key_1'), keys.findByHash('known'), keys.findByHash('known')]);
    expect([inner.byId, inner.calls]).toEqual([1, 1]);
    let fail = true;
    const flaky = cachedKeyStore({ ...inner, findRecentById: async () => (fail ? Promise.reject(new Error('database gone')) : principal) }, new FakeClock(), 2_000);
    await expect(flaky.findRecentById('key_1')).rejects.toThrow('database gone');
    fail = false;
    expect(await flaky.findRecentById('key_1')).toEqual(principal);
  });
});
