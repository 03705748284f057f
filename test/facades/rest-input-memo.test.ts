import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryCache } from '../../src/adapters/memory/cache.js';
import { createSandboxAdapters } from '../../src/adapters/platforms/sandbox/adapter.js';
import { systemClock } from '../../src/adapters/system/clock.js';
import type { Cache } from '../../src/domain/ports/caching.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { expectError } from '../support/common-rules.js';

/**
 * Issue 29: a GET call's validated input is remembered by its path and query string. Every
 * caller sending the same query string must still get its own answer (its key kind's data and
 * price, its rate-limit bucket, its request id, its warnings), exactly what the unremembered
 * path (the same search as a JSON body) answers; refusals are never remembered.
 */
const QUERY = 'location=Lisbon&limit=5&adults=2&platforms=airbnb,vrbo&sort=rating_desc';

interface Answer {
  status: number;
  body: string;
  remaining: string | null;
  meta: Record<string, unknown> & { requestId: string; creditsCharged: number; warnings: { code: string; message: string }[] };
  data: unknown;
}

/** The answer with what differs on every request (its id, how long it took) taken out. */
function comparable(a: Answer): unknown {
  const { requestId: _id, ...meta } = a.meta;
  return { status: a.status, data: a.data, meta: JSON.parse(JSON.stringify(meta, (k, v) => (/ms$/i.test(k) && typeof v === 'number' ? 0 : v))) };
}

// The in-process cache, recording the keys each call reads: remembered and fresh inputs must read the same legs.
const memory = createMemoryCache(systemClock);
let read: string[] = [];
const cache: Cache = { get: (key) => (read.push(key), memory.get(key)), set: (key, value, ttlMs) => memory.set(key, value, ttlMs) };

let app: TestApp;
let sandboxA: string;
let sandboxB: string;
let live: string;
beforeAll(async () => {
  // Live keys get the sandbox's platforms: the same items under the live key kind's prices and cache.
  app = await startTestApp({ cache, platforms: { live: createSandboxAdapters() } });
  sandboxA = (await app.newKey('sandbox')).key;
  sandboxB = (await app.newKey('sandbox')).key;
  live = (await app.newKey('live', { credits: 10_000 })).key;
});
afterAll(() => app.close());

async function get(query: string, key: string): Promise<Answer> {
  const res = await app.get(`/v1/search?${query}`, key);
  const body = await res.text();
  return { status: res.status, body, remaining: res.headers.get('x-ratelimit-remaining'), ...(JSON.parse(body) as Pick<Answer, 'meta' | 'data'>) };
}

async function post(input: object, key: string): Promise<Answer> {
  const res = await fetch(`${app.baseUrl}/v1/search`, { method: 'POST', headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' }, body: JSON.stringify(input) });
  const body = await res.text();
  return { status: res.status, body, remaining: res.headers.get('x-ratelimit-remaining'), ...(JSON.parse(body) as Pick<Answer, 'meta' | 'data'>) };
}

describe('remembered GET input', () => {
  it('answers the same query string from every caller as the unremembered path does, each with its own per-request fields', async () => {
    const asBody = { location: 'Lisbon', limit: 5, adults: 2, platforms: ['airbnb', 'vrbo'], sort: 'rating_desc' };
    // Warm the legs' cache first, so every answer below is a cached one.
    await post(asBody, sandboxA);
    await post(asBody, live);
    const first = await get(QUERY, sandboxA);
    const again = await get(QUERY, sandboxA);
    const other = await get(QUERY, sandboxB);
    const liveAnswer = await get(QUERY, live);
    const liveAgain = await get(QUERY, live);
    for (const a of [first, again, other, liveAnswer, liveAgain]) expect(a.status).toBe(200);
    const sandboxBody = await post(asBody, sandboxB);
    const liveBody = await post(asBody, live);
    for (const a of [first, again, other]) expect(comparable(a)).toEqual(comparable(sandboxBody));
    for (const a of [liveAnswer, liveAgain]) expect(comparable(a)).toEqual(comparable(liveBody));
    // The key kinds keep their own answers: a live search is charged, a sandbox one is not.
    expect(first.meta.creditsCharged).toBe(0);
    expect(liveAnswer.meta.creditsCharged).toBeGreaterThan(0);
    // Each key its own bucket and each request its own id.
    expect(Number(again.remaining)).toBe(Number(first.remaining) - 1);
    expect(Number(other.remaining)).toBe(Number(sandboxBody.remaining) + 1);
    expect(new Set([first, again, other, liveAnswer, liveAgain].map((a) => a.meta.requestId)).size).toBe(5);
  });

  it("reads the legs' cache entries a fresh input reads, the key kind's own", async () => {
    const keysOf = async (send: () => Promise<Answer>) => {
      read = [];
      expect((await send()).status).toBe(200);
      return read.filter((k) => k.includes(':search:')).sort();
    };
    const asBody = { location: 'Porto', limit: 3, platforms: ['airbnb', 'vrbo', 'booking'] };
    const query = 'location=Porto&limit=3&platforms=airbnb,vrbo,booking';
    for (const key of [sandboxA, live]) {
      const fresh = await keysOf(() => post(asBody, key));
      expect(fresh).toHaveLength(3);
      expect(await keysOf(() => get(query, key))).toEqual(fresh);
      expect(await keysOf(() => get(query, key))).toEqual(fresh);
    }
    const [sandboxKeys, liveKeys] = [await keysOf(() => get(query, sandboxB)), await keysOf(() => get(query, live))];
    expect(sandboxKeys.every((k) => k.includes(':sandbox:'))).toBe(true);
    expect(liveKeys.every((k) => k.includes(':live:'))).toBe(true);
  });

  it('still warns of unknown parameters on a repeated query string', async () => {
    for (let i = 0; i < 2; i++) {
      const a = await get(`${QUERY}&colour=blue`, sandboxA);
      expect(a.status).toBe(200);
      expect(a.meta.warnings).toContainEqual(expect.objectContaining({ code: 'unknown_parameter', message: expect.stringContaining('colour') }));
    }
    // The query string without the unknown parameter is another key: no warning.
    expect((await get(QUERY, sandboxA)).meta.warnings.map((w) => w.code)).not.toContain('unknown_parameter');
  });

  it('refuses bad input every time, naming the field, and never remembers a refusal', async () => {
    for (let i = 0; i < 2; i++) {
      const err = await expectError(await app.get('/v1/search?location=Lisbon&adults=0', sandboxA), 400, 'invalid_request');
      expect(err.param).toBe('adults');
    }
    // A query string that differs only in the bad value is its own key, parsed on its own.
    expect((await get('location=Lisbon&adults=1', sandboxA)).status).toBe(200);
    expect((await expectError(await app.get('/v1/search?location=Lisbon&adults=0', sandboxA), 400, 'invalid_request')).param).toBe('adults');
    // Control characters are refused before validation, the second time too.
    for (let i = 0; i < 2; i++) expect((await app.get('/v1/search?location=Lis%07bon', sandboxA)).status).toBe(400);
    // A missing or unknown key is still refused on a query string remembered for another caller.
    expect((await app.get(`/v1/search?${QUERY}`)).status).toBe(401);
    expect((await app.get(`/v1/search?${QUERY}`, 'ads_test_nope')).status).toBe(401);
  });
});
