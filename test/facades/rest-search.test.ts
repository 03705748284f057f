import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { addDays } from '../../src/domain/dates.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { expectCommonRules, expectError } from '../support/common-rules.js';

const today = new Date().toISOString().slice(0, 10);
const checkIn = addDays(today, 40);
const checkOut = addDays(today, 44);

interface Item {
  id: string;
  platform: string;
  platformListingId: string;
  propertyType: string;
  bedrooms: number;
  amenities: string[];
  guestRating: number | null;
  ratingScale: number;
  price: { totalPrice: number; nightlyPrice: number; nights: number; currency: string; fees: Record<string, number | null> } | null;
}
interface Page {
  data: Item[];
  meta: {
    requestId: string;
    platforms: string[];
    partial: boolean;
    creditsCharged: number;
    currency: string;
    cached: boolean;
    pagination: { limit: number; cursor: string | null; nextCursor: string | null; hasMore: boolean };
    platformResults: { platform: string; status: string; count: number; creditsCharged: number; cached: boolean }[];
    warnings: { code: string; platform?: string }[];
  };
}

let app: TestApp;
let key: string;
beforeAll(async () => {
  app = await startTestApp();
});
// Sandbox keys allow 30 requests a minute; each test gets a key of its own.
beforeEach(async () => {
  key = (await app.newKey('sandbox')).key;
});
afterAll(() => app.close());

async function page(query: string, k = key): Promise<Page> {
  const res = await app.get(`/v1/search?${query}`, k);
  expect(res.status).toBe(200);
  return (await res.json()) as Page;
}

describe('GET /v1/search (sandbox)', () => {
  it('obeys the cross-cutting rules', () => expectCommonRules(app, '/v1/search?location=Lisbon'));

  it('returns 20 well-formed properties from several platforms, free', async () => {
    const body = await page('location=Lisbon');
    expect(body.data).toHaveLength(20);
    expect(new Set(body.data.map((p) => p.platform)).size).toBeGreaterThanOrEqual(3);
    for (const p of body.data) expect(p.id).toBe(`stays_${p.platform}_${p.platformListingId}`);
    expect(body.meta).toMatchObject({ platforms: ['airbnb', 'booking', 'vrbo', 'google'], partial: false, creditsCharged: 0, currency: 'USD' });
    expect(body.meta.platformResults.map((r) => r.platform)).toEqual(['airbnb', 'booking', 'vrbo', 'google']);
    expect(body.meta.platformResults.reduce((s, r) => s + r.count, 0)).toBe(20);
    // recommended = round-robin in the order of platforms
    expect(body.data.slice(0, 4).map((p) => p.platform)).toEqual(['airbnb', 'booking', 'vrbo', 'google']);
  });

  it('serves a repeated request from the cache, per leg', async () => {
    const first = await page('location=Madrid&platforms=airbnb,vrbo&limit=6');
    expect(first.meta.cached).toBe(false);
    const again = await page('location=madrid&limit=6&platforms=airbnb,vrbo&adults=2');
    expect(again.meta.cached).toBe(true);
    expect(again.meta.platformResults.every((r) => r.cached)).toBe(true);
    expect(again.data).toEqual(first.data);
    // one more platform: the cached legs are reused, the new one is fetched, so the call is not fully cached
    const wider = await page('location=Madrid&platforms=airbnb,vrbo,booking&limit=6');
    expect(wider.meta.cached).toBe(false);
    expect(wider.meta.platformResults.map((r) => r.cached)).toEqual([true, true, false]);
  });

  it('answers the same bytes for the same request', async () => {
    const a = (await page('location=Lisbon&limit=7')).data;
    const b = (await page('location=lisbon&limit=7')).data;
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
  });

  it('pages through every result exactly once with cursors bound to the query', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const body: Page = await page(`location=Porto&platforms=booking,vrbo&limit=25${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...body.data.map((p) => p.id));
      expect(body.meta.pagination.cursor).toBe(cursor);
      cursor = body.meta.pagination.nextCursor;
      expect(body.meta.pagination.hasMore).toBe(cursor !== null);
      pages++;
    } while (cursor && pages < 20);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.length).toBe(60 + 45); // the sandbox catalogue of booking and vrbo for a city
    const first = await page('location=Porto&platforms=booking,vrbo&limit=25');
    const other = await app.get(`/v1/search?location=Lisbon&platforms=booking,vrbo&cursor=${first.meta.pagination.nextCursor}`, key);
    await expectError(other, 400, 'invalid_cursor');
    const tampered = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(first.meta.pagination.nextCursor!, 'base64url').toString()), p: { booking: 0, vrbo: 0 } })).toString('base64url');
    await expectError(await app.get(`/v1/search?location=Porto&platforms=booking,vrbo&cursor=${tampered}`, key), 400, 'invalid_cursor');
  });

  it('honours filters, sorts and the currency', async () => {
    const q = `location=Paris&checkIn=${checkIn}&checkOut=${checkOut}&propertyType=apartment,house&minBedrooms=2&amenities[]=wifi&amenities[]=kitchen&sort=price_asc&currency=eur&limit=50`;
    const body = await page(q);
    expect(body.data.length).toBeGreaterThan(0);
    for (const p of body.data) {
      expect(['apartment', 'house']).toContain(p.propertyType);
      expect(p.bedrooms).toBeGreaterThanOrEqual(2);
      expect(p.amenities).toEqual(expect.arrayContaining(['wifi', 'kitchen']));
      expect(p.price).toMatchObject({ currency: 'EUR', nights: 4 });
    }
    const totals = body.data.map((p) => p.price!.totalPrice);
    expect(totals).toEqual([...totals].sort((a, b) => a - b));
    expect(body.meta.currency).toBe('EUR');
    expect(body.meta.warnings).toContainEqual(expect.objectContaining({ code: 'filter_applied_after_retrieval', platform: 'airbnb' }));

    const priced = await page(`location=Paris&checkIn=${checkIn}&checkOut=${checkOut}&priceMin=150&priceMax=260&limit=100`);
    for (const p of priced.data) expect(p.price!.nightlyPrice).toBeGreaterThanOrEqual(150), expect(p.price!.nightlyPrice).toBeLessThanOrEqual(260);

    const rated = await page('location=Paris&sort=rating_desc&platforms=booking,airbnb&limit=30');
    const shares = rated.data.map((p) => (p.guestRating ?? -1) / p.ratingScale);
    expect(shares).toEqual([...shares].sort((a, b) => b - a));
  });

  it('accepts the POST form with JSON arrays and any charset', async () => {
    const body = { location: 'Rome', platforms: ['vrbo', 'airbnb'], limit: 5 };
    const post = (contentType: string, bytes: Buffer) =>
      fetch(`${app.baseUrl}/v1/search`, { method: 'POST', headers: { Authorization: `Bearer ${key}`, 'Content-Type': contentType }, body: new Uint8Array(bytes) });
    const utf8 = await post('application/json; charset=utf-8', Buffer.from(JSON.stringify(body)));
    expect(utf8.status).toBe(200);
    const fromPost = (await utf8.json()) as Page;
    expect(fromPost.meta.platforms).toEqual(['vrbo', 'airbnb']);
    const utf16 = await post('application/json; charset=utf-16le', Buffer.from(JSON.stringify(body), 'utf16le'));
    expect(((await utf16.json()) as Page).data).toEqual(fromPost.data);
    const fromGet = await page('location=Rome&platforms[]=vrbo&platforms[]=airbnb&limit=5');
    expect(fromGet.data).toEqual(fromPost.data);
    await expectError(await post('application/json', Buffer.from('{"location": ')), 400, 'invalid_request');
    await expectError(await post('text/plain', Buffer.from('location=Rome')), 415, 'unsupported_media_type');
  });

  it('answers an unknown place with no results, free', async () => {
    const body = await page('location=Atlantis');
    expect(body.data).toEqual([]);
    expect(body.meta.warnings).toContainEqual(expect.objectContaining({ code: 'no_results' }));
    expect(body.meta.platformResults.every((r) => r.status === 'empty' && r.creditsCharged === 0)).toBe(true);
  });

  it('reproduces partial and unavailable upstreams', async () => {
    const partial = await page('location=sandbox:partial&platforms=airbnb,booking,vrbo');
    expect(partial.meta.partial).toBe(true);
    expect(partial.meta.platformResults.find((r) => r.platform === 'vrbo')).toMatchObject({ status: 'failed', count: 0, creditsCharged: 0 });
    expect(partial.data.length).toBe(20);
    const down = await expectError(await app.get('/v1/search?location=sandbox:unavailable', key), 503, 'upstream_unavailable');
    expect(down.retryable).toBe(true);
  });

  it.each([
    ['location=', 400, 'invalid_request', 'location'],
    ['location=Lisbon&limit=0', 400, 'limit_out_of_range', 'limit'],
    ['location=Lisbon&limit=101', 400, 'limit_out_of_range', 'limit'],
    ['location=Lisbon&limit=2.5', 400, 'limit_out_of_range', 'limit'],
    ['location=Lisbon&checkIn=2027-01-05', 400, 'missing_parameter', 'checkOut'],
    [`location=Lisbon&checkIn=${checkOut}&checkOut=${checkIn}`, 400, 'invalid_request', 'checkOut'],
    ['location=Lisbon&checkIn=2020-01-01&checkOut=2020-01-03', 400, 'invalid_request', 'checkIn'],
    ['location=Lisbon&checkIn=2027-02-30&checkOut=2027-03-02', 400, 'invalid_request', 'checkIn'],
    ['location=Lisbon&children=2&childAges=5', 400, 'invalid_request', 'childAges'],
    ['location=Lisbon&adults=0', 400, 'invalid_request', 'adults'],
    ['location=Lisbon&adults=abc', 400, 'invalid_request', 'adults'],
    ['location=Lisbon&propertyType=castle', 400, 'invalid_request', 'propertyType'],
    ['location=Lisbon&platforms=expedia', 400, 'invalid_request', 'platforms'],
    ['location=Lisbon&platforms=myspace', 400, 'invalid_request', 'platforms'],
    ['location=Lisbon&sort=cheapest', 400, 'invalid_request', 'sort'],
    ['location=Lisbon&currency=XYZ', 400, 'invalid_request', 'currency'],
    ['location=Lisbon&priceMin=10', 400, 'invalid_request', 'priceMin'],
    [`location=Lisbon&checkIn=${checkIn}&checkOut=${checkOut}&priceMin=300&priceMax=100`, 400, 'invalid_request', 'priceMax'],
  ])('rejects %s', async (query, status, code, param) => {
    const err = await expectError(await app.get(`/v1/search?${query}`, key), status, code);
    expect(err.param).toBe(param);
  });
});
