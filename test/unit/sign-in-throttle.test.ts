import { describe, expect, it } from 'vitest';
import { createMemoryRateLimiter } from '../../src/adapters/memory/rate-limiter.js';
import { FakeClock } from '../../src/adapters/system/clock.js';
import { createSignInThrottle, lockedMessage } from '../../src/domain/accounts/sign-in-throttle.js';

/** The reusable sign-in throttle on the limiter port's in-process twin, with a fake clock. */
describe('sign-in throttle', () => {
  it('locks an e-mail after its tries, whatever the address, until the bucket refills', async () => {
    const clock = new FakeClock();
    const throttle = createSignInThrottle(createMemoryRateLimiter(clock), { perAccount: 5, perAddress: 100 });
    const results = [];
    for (let i = 0; i < 8; i++) results.push(await throttle.admit('Ana@Example.com ', `10.0.0.${i}`));
    expect(results.map((r) => r.allowed)).toEqual([true, true, true, true, true, false, false, false]);
    expect(results[5]).toEqual({ allowed: false, retryAfterSeconds: 12 });
    expect((await throttle.admit('ana@example.com', '10.0.1.1')).allowed).toBe(false); // same e-mail, case and spaces aside
    expect((await throttle.admit('bob@example.com', '10.0.1.1')).allowed).toBe(true);
    clock.advance(12_000);
    expect((await throttle.admit('ana@example.com', '10.0.1.2')).allowed).toBe(true);
  });

  it('locks an address spraying many e-mails', async () => {
    const clock = new FakeClock();
    const throttle = createSignInThrottle(createMemoryRateLimiter(clock), { perAccount: 5, perAddress: 20 });
    const allowed = [];
    for (let i = 0; i < 25; i++) allowed.push((await throttle.admit(`user${i}@example.com`, '203.0.113.9')).allowed);
    expect(allowed.filter(Boolean)).toHaveLength(20);
    expect((await throttle.admit('other@example.com', '203.0.113.10')).allowed).toBe(true);
  });

  it('says the same thing for any e-mail', () => {
    expect(lockedMessage(12)).not.toMatch(/account (does not )?exist|unknown/i);
  });
});
