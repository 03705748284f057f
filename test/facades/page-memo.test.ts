import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryCache } from '../../src/adapters/memory/cache.js';
import { createSandboxAdapters } from '../../src/adapters/platforms/sandbox/adapter.js';
import { FakeClock } from '../../src/adapters/system/clock.js';
import type { Cache } from '../../src/domain/ports/caching.js';
import { startTestApp, type TestApp } from '../support/app.js';

/**
 * Issue 15: a fully cached search answers from its memoized page. In development (every answer
 * validated) and in production (a page validated once), the page must send exactly the bytes
 * of `data` the uncached path sends, follow its legs' cache entries, and never carry one
 * request's, account's or key kind's per-request fields to another.
 */
const SEARCH = '/v1/search?location=Lisbon&limit=20';

/** The `data` of an envelope exactly as sent: everything before `,"meta":` (data comes first). */
function dataText(body: string): string {
  expect(body.startsWith('{"data":')).toBe(true);
  return body.slice(0, body.lastIndexOf(',"meta":'));
}

interface Answer {
  status: number;
  body: string;
  requestId: string | null;
  meta: { requestId: string; cached: boolean; creditsCharged: number; warnings: { code: string }[]; platformResults: { cached: boolean; creditsCharged: number }[]; pagination: { nextCursor: string | null } };
  data: { name: string }[];
}

describe.each([false, true])('memoized search pages (production: %s)', (production) => {
  const clock = new FakeClock('2027-03-01T09:00:00Z');
  const memory = createMemoryCache(clock);
  const searchKeys = new Set<string>();
  // The real in-process cache, remembering which keys hold search legs so the test can rewrite one.
  const cache: Cache = {
    get: (key) => memory.get(key),
    set: async (key, value, ttlMs) => {
      if (key.includes(':search:')) searchKeys.add(key);
      await memory.set(key, value, ttlMs);
    },
  };
  let app: TestApp;
  let sandboxA: string;
  let sandboxB: string;
  let live: string;

  const call = async (path: string, key: string): Promise<Answer> => {
    const res = await app.get(path, key);
    const body = await res.text();
    const parsed = JSON.parse(body) as Pick<Answer, 'meta' | 'data'>;
    return { status: res.status, body, requestId: res.headers.get('x-request-id'), ...parsed };
  };

  beforeAll(async () => {
    // Live keys get the sandbox's platforms here: the same answers under the live key kind's own cache keys and prices.
    app = await startTestApp({ clock, cache, platforms: { live: createSandboxAdapters() }, config: { production } });
    sandboxA = (await app.newKey('sandbox')).key;
    sandboxB = (await app.newKey('sandbox')).key;
    live = (await app.newKey('live', { credits: 10_000 })).key;
  });
  afterAll(() => app.close());

  it('sends byte-identical data from the legs, the first memoized page and its reuse; meta stays per request', async () => {
    const uncached = await call(SEARCH, sandboxA);
    const building = await call(SEARCH, sandboxA);
    const reused = await call(SEARCH, sandboxB);
    const again = await call(SEARCH, sandboxA);
    for (const a of [uncached, building, reused, again]) expect(a.status).toBe(200);
    expect(uncached.meta.cached).toBe(false);
    for (const a of [building, reused, again]) {
      expect(a.meta.cached).toBe(true);
      expect(dataText(a.body)).toBe(dataText(uncached.body));
      expect(a.meta.pagination.nextCursor).toBe(uncached.meta.pagination.nextCursor);
    }
    const ids = [uncached, building, reused, again].map((a) => a.meta.requestId);
    expect(new Set(ids).size).toBe(4);
    for (const a of [uncached, building, reused, again]) expect(a.requestId).toBe(a.meta.requestId);
  });

  it('pages on with the same cursor and the same bytes for every caller', async () => {
    const first = await call(SEARCH, sandboxA);
    const next = `${SEARCH}&cursor=${first.meta.pagination.nextCursor}`;
    const [a, b, c] = [await call(next, sandboxA), await call(next, sandboxB), await call(next, sandboxA)];
    for (const x of [a, b, c]) expect(x.status).toBe(200);
    expect(dataText(b.body)).toBe(dataText(a.body));
    expect(dataText(c.body)).toBe(dataText(a.body));
    expect(a.data[0]!.name).not.toBe(first.data[0]!.name);
  });

  it('keeps one request\'s unknown-parameter warning to that request', async () => {
    const typo = await call(`${SEARCH}&lokation=Porto`, sandboxB);
    const plain = await call(SEARCH, sandboxA);
    expect(typo.meta.warnings.map((w) => w.code)).toContain('unknown_parameter');
    expect(plain.meta.warnings.map((w) => w.code)).not.toContain('unknown_parameter');
    expect(dataText(typo.body)).toBe(dataText(plain.body));
  });

  it('never answers a live key from a sandbox page, and bills each live call for itself', async () => {
    const sandbox = await call(SEARCH, sandboxA);
    const first = await call(SEARCH, live);
    const second = await call(SEARCH, live);
    expect(sandbox.meta.creditsCharged).toBe(0);
    // The live key kind has its own leg entries: its first call is not cached, whatever the sandbox holds.
    expect(first.meta.cached).toBe(false);
    expect(second.meta.cached).toBe(true);
    expect(first.meta.creditsCharged).toBeGreaterThan(0);
    expect(second.meta.creditsCharged).toBe(first.meta.creditsCharged);
    expect(second.meta.requestId).not.toBe(first.meta.requestId);
  });

  it('follows a rewritten leg entry at once', async () => {
    const before = await call(SEARCH, sandboxA);
    expect(before.meta.cached).toBe(true);
    let rewritten = 0;
    for (const key of searchKeys) {
      if (!key.includes(':sandbox:')) continue;
      const leg = JSON.parse((await memory.get(key))!) as { items: { name: string }[] };
      if (leg.items.length === 0) continue;
      leg.items = leg.items.map((item) => ({ ...item, name: `${item.name} (renamed)` }));
      await memory.set(key, JSON.stringify(leg), 60_000);
      rewritten++;
    }
    expect(rewritten).toBeGreaterThan(0);
    const after = await call(SEARCH, sandboxA);
    expect(after.meta.cached).toBe(true);
    expect(after.data.every((p) => p.name.endsWith(' (renamed)'))).toBe(true);
    expect(dataText(after.body)).not.toBe(dataText(before.body));
  });

  it('sends the same data bytes over /trpc as over REST, from the legs and from the memoized page, in tRPC\'s own format', async () => {
    const input = encodeURIComponent(JSON.stringify({ location: 'Lisbon', limit: 20, checkIn: '2027-04-02', checkOut: '2027-04-05' }));
    const trpc = async () => {
      const res = await app.get(`/trpc/search?input=${input}`, sandboxA);
      const body = await res.text();
      return { status: res.status, body, type: res.headers.get('content-type'), vary: res.headers.get('vary'), requestId: res.headers.get('x-request-id') };
    };
    const rest = await call(`${SEARCH}&checkIn=2027-04-02&checkOut=2027-04-05`, sandboxA);
    const answers = [await trpc(), await trpc(), await trpc(), await trpc()];
    for (const a of answers) {
      expect(a.status).toBe(200);
      expect(a.type).toBe('application/json');
      expect(a.vary).toBe('trpc-accept, accept');
      expect(a.body.startsWith('{"result":{"data":{"kind":"result","data":')).toBe(true);
      const sent = a.body.slice('{"result":{"data":{"kind":"result","data":'.length, a.body.lastIndexOf(',"meta":'));
      expect(`{"data":${sent}`).toBe(dataText(rest.body));
      const parsed = JSON.parse(a.body) as { result: { data: { meta: { requestId: string } } } };
      expect(parsed.result.data.meta.requestId).toBe(a.requestId);
    }
    // a refused call keeps tRPC's error format, with our error body
    const bad = await app.get(`/trpc/search?input=${encodeURIComponent(JSON.stringify({ location: 'Lisbon', limit: 0 }))}`, sandboxA);
    expect(bad.status).toBe(400);
    const error = ((await bad.json()) as { error: { data: { httpStatus: number; apiError: { error: { param: string } } } } }).error;
    expect(error.data.httpStatus).toBe(400);
    expect(error.data.apiError.error.param).toBe('limit');
  });

  it('answers from the platforms again once the leg entries expire', async () => {
    clock.advance(31 * 60_000);
    const expired = await call(SEARCH, sandboxA);
    expect(expired.meta.cached).toBe(false);
    expect(expired.meta.platformResults.every((r) => !r.cached)).toBe(true);
    expect(expired.data.some((p) => p.name.endsWith(' (renamed)'))).toBe(false);
    const cached = await call(SEARCH, sandboxB);
    expect(cached.meta.cached).toBe(true);
    expect(dataText(cached.body)).toBe(dataText(expired.body));
  });
});
