import { describe, expect, it } from 'vitest';
import { createMemoryCache } from '../../src/adapters/memory/cache.js';
import { createMemoryRateLimiter } from '../../src/adapters/memory/rate-limiter.js';
import { FakeClock } from '../../src/adapters/system/clock.js';

describe('FakeClock', () => {
  it('starts where told and only moves when advanced', () => {
    const clock = new FakeClock('2027-03-01T10:00:00Z');
    expect(clock.now().toISOString()).toBe('2027-03-01T10:00:00.000Z');
    expect(clock.now().toISOString()).toBe('2027-03-01T10:00:00.000Z');
    clock.advance(1500);
    expect(clock.now().toISOString()).toBe('2027-03-01T10:00:01.500Z');
  });
});

describe('memory rate limiter (token bucket, capacity per minute)', () => {
  it('admits exactly 30 of 200 immediate takes at capacity 30', async () => {
    const clock = new FakeClock();
    const limiter = createMemoryRateLimiter(clock);
    const decisions = [];
    for (let i = 0; i < 200; i++) decisions.push(await limiter.take('key_a', 30));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(30);
    expect(decisions.slice(0, 30).every((d) => d.allowed)).toBe(true);
    expect(decisions.slice(30).every((d) => !d.allowed)).toBe(true);
    expect(decisions.map((d) => d.remaining).slice(0, 31)).toEqual([...Array.from({ length: 30 }, (_, i) => 29 - i), 0]);
    expect(decisions.every((d) => d.limit === 30)).toBe(true);
  });

  it('reports reset and retry-after times', async () => {
    const clock = new FakeClock();
    const t0 = clock.now().getTime();
    const limiter = createMemoryRateLimiter(clock);
    const first = await limiter.take('k', 30);
    expect(first).toEqual({ allowed: true, limit: 30, remaining: 29, resetAtMs: t0 + 2000, retryAfterMs: 0 });
    for (let i = 0; i < 29; i++) await limiter.take('k', 30);
    const denied = await limiter.take('k', 30);
    expect(denied).toEqual({ allowed: false, limit: 30, remaining: 0, resetAtMs: t0 + 60_000, retryAfterMs: 2000 });
  });

  it('refills one token per 2 s at capacity 30: exactly one more after 2 s, none after 1.999 s', async () => {
    const clock = new FakeClock();
    const t0 = clock.now().getTime();
    const limiter = createMemoryRateLimiter(clock);
    for (let i = 0; i < 30; i++) await limiter.take('k', 30);
    clock.advance(1999);
    const early = await limiter.take('k', 30);
    expect(early.allowed).toBe(false);
    expect(early.retryAfterMs).toBe(1);
    expect(early.resetAtMs).toBe(t0 + 60_000);
    clock.advance(1);
    const one = await limiter.take('k', 30);
    expect(one).toEqual({ allowed: true, limit: 30, remaining: 0, resetAtMs: t0 + 62_000, retryAfterMs: 0 });
    const again = await limiter.take('k', 30);
    expect(again.allowed).toBe(false);
    expect(again.retryAfterMs).toBe(2000);
  });

  it('denied takes do not consume tokens: polling every 200 ms still gets the token at 2 s', async () => {
    const clock = new FakeClock();
    const limiter = createMemoryRateLimiter(clock);
    for (let i = 0; i < 30; i++) await limiter.take('k', 30);
    for (let step = 1; step < 10; step++) {
      clock.advance(200);
      expect((await limiter.take('k', 30)).allowed, `after ${step * 200} ms`).toBe(false);
    }
    clock.advance(200);
    // Each denied take re-bases the bucket ({ tokens, at: now }), so ten 0.1-token refills sum to
    // 0.9999999999999999 and the token only arrives at 2200 ms. 2000 ms after the bucket emptied, one token (2000 ms x 30/60000 per ms) is due.
    expect(await limiter.take('k', 30)).toMatchObject({ allowed: true, retryAfterMs: 0 });
  });

  it('refills to capacity and never beyond it', async () => {
    const clock = new FakeClock();
    const limiter = createMemoryRateLimiter(clock);
    for (let i = 0; i < 30; i++) await limiter.take('k', 30);
    clock.advance(10 * 60_000);
    let allowed = 0;
    for (let i = 0; i < 100; i++) if ((await limiter.take('k', 30)).allowed) allowed++;
    expect(allowed).toBe(30);
  });

  it('refills proportionally to elapsed time', async () => {
    const clock = new FakeClock();
    const limiter = createMemoryRateLimiter(clock);
    for (let i = 0; i < 60; i++) await limiter.take('k', 60);
    clock.advance(10_000); // 60 per minute = 1 per second
    let allowed = 0;
    for (let i = 0; i < 30; i++) if ((await limiter.take('k', 60)).allowed) allowed++;
    expect(allowed).toBe(10);
  });

  it('keeps buckets independent and sizes them by the capacity asked for', async () => {
    const clock = new FakeClock();
    const limiter = createMemoryRateLimiter(clock);
    for (let i = 0; i < 30; i++) await limiter.take('a', 30);
    expect((await limiter.take('a', 30)).allowed).toBe(false);
    const b = await limiter.take('b', 300);
    expect(b).toMatchObject({ allowed: true, limit: 300, remaining: 299, retryAfterMs: 0 });
    expect(b.resetAtMs).toBe(clock.now().getTime() + 200);
    let allowedB = 1;
    for (let i = 0; i < 400; i++) if ((await limiter.take('b', 300)).allowed) allowedB++;
    expect(allowedB).toBe(300);
  });
});

describe('memory cache', () => {
  it('returns a value until its TTL has passed, then null', async () => {
    const clock = new FakeClock();
    const cache = createMemoryCache(clock);
    await cache.set('k', 'v', 1000);
    expect(await cache.get('k')).toBe('v');
    clock.advance(999);
    expect(await cache.get('k')).toBe('v');
    clock.advance(1);
    expect(await cache.get('k')).toBeNull();
    clock.advance(-500);
    expect(await cache.get('k')).toBeNull(); // expired entries are dropped, not revived
  });

  it('misses unknown keys and keeps keys apart', async () => {
    const clock = new FakeClock();
    const cache = createMemoryCache(clock);
    await cache.set('a', '1', 60_000);
    await cache.set('b', '2', 10);
    expect(await cache.get('c')).toBeNull();
    clock.advance(10);
    expect(await cache.get('a')).toBe('1');
    expect(await cache.get('b')).toBeNull();
  });

  it('overwriting a key replaces its value and restarts its TTL', async () => {
    const clock = new FakeClock();
    const cache = createMemoryCache(clock);
    await cache.set('k', 'old', 1000);
    clock.advance(900);
    await cache.set('k', 'new', 1000);
    clock.advance(900);
    expect(await cache.get('k')).toBe('new');
    clock.advance(100);
    expect(await cache.get('k')).toBeNull();
  });

  it('evicts the oldest entry when full', async () => {
    const clock = new FakeClock();
    const cache = createMemoryCache(clock, 3);
    for (const k of ['a', 'b', 'c', 'd']) await cache.set(k, k.toUpperCase(), 60_000);
    expect(await cache.get('a')).toBeNull();
    expect([await cache.get('b'), await cache.get('c'), await cache.get('d')]).toEqual(['B', 'C', 'D']);
  });

  it('refreshing a key that is already cached does not evict another key', async () => {
    const clock = new FakeClock();
    const cache = createMemoryCache(clock, 2);
    await cache.set('a', '1', 60_000);
    await cache.set('b', '2', 60_000);
    await cache.set('b', '3', 60_000);
    expect(await cache.get('b')).toBe('3');
    expect(await cache.get('a')).toBe('1');
  });
});
