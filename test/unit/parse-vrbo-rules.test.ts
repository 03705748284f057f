import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { UpstreamNotFound, type UpstreamClient, type UpstreamRequest } from '../../src/adapters/platforms/http/upstream.js';
import { FieldWarnings } from '../../src/adapters/platforms/parse-support.js';
import { searchRequest, SEARCH_OPERATION, SEARCH_PATH } from '../../src/adapters/platforms/vrbo/client.js';
import { createVrboAdapter } from '../../src/adapters/platforms/vrbo/index.js';
import { parseListing } from '../../src/adapters/platforms/vrbo/parse-listing.js';
import { parseSearchPage } from '../../src/adapters/platforms/vrbo/parse-search.js';
import { readPriceSummary } from '../../src/adapters/platforms/vrbo/price-summary.js';
import { LegFailure, type SearchQuery } from '../../src/domain/ports/platform.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const FIXTURE_DIR = path.join(ROOT, 'fixtures/replay/vrbo');
const FIXTURE = JSON.parse(readFileSync(path.join(FIXTURE_DIR, 'serp/g/SearchRequestQuery.json'), 'utf8')) as {
  data: { results: { listings: Record<string, unknown>[] } };
};
const CTX = { siteUrl: 'https://www.vrbo.com', currency: 'USD', dated: false };
const signal = new AbortController().signal;

function query(over: Partial<SearchQuery> = {}): SearchQuery {
  return {
    location: 'Chicago', area: { centre: null, radiusKm: null, box: null }, checkIn: null, checkOut: null, occupancy: { adults: 2, children: 0, childAges: [] }, rooms: 1,
    propertyTypes: [], amenities: [], minBedrooms: null, priceMin: null, priceMax: null, minGuestRating: null, refundable: null, board: null,
    platforms: ['vrbo'], sort: 'recommended', currency: 'USD', ...over,
  };
}

/** An UpstreamClient that answers from a function and records what it was asked. */
function fakeClient(answer: (req: UpstreamRequest) => unknown): UpstreamClient & { asked: UpstreamRequest[] } {
  const asked: UpstreamRequest[] = [];
  return {
    asked,
    json: async (req) => {
      asked.push(req);
      const a = answer(req);
      if (a instanceof Error) throw a;
      return a;
    },
    close: async () => {},
  };
}
const fixtureClient = () => fakeClient(() => structuredClone(FIXTURE));
const pageOf = (req: UpstreamRequest) => (req.body as { variables: { request: { paging: { page: number } } } }).variables.request.paging.page;

/** A synthetic SERP page: listings n..n+size-1, `pageCount` pages in all. */
function synthetic(page: number, size: number, pageCount: number) {
  const listings = Array.from({ length: size }, (_, i) => {
    const n = 100000 + (page - 1) * size + i;
    return { propertyId: String(n), listingNumber: n, detailPageUrl: `/${n}?unitId=${n}`, propertyMetadata: { headline: `Listing ${n}` }, reviewCount: 1, averageRating: 4 + (n % 10) / 10, bedrooms: n % 4, sleeps: 4, bathrooms: { full: 1, half: 0 }, propertyType: 'House', amenitiesBadges: [], images: [] };
  });
  return { data: { results: { page, pageSize: size, pageCount, listings } } };
}

describe('vrbo rules', () => {
  it('a field that is not there is null with a warning, never a made-up 0 or []', () => {
    const w = new FieldWarnings('vrbo');
    const p = parseListing({ propertyId: '123456', propertyMetadata: { headline: 'Bare item' } }, CTX, w);
    expect(p).toMatchObject({ id: 'stays_vrbo_123456', url: 'https://www.vrbo.com/123456', guestRating: null, reviewCount: null, maxOccupancy: null, bedrooms: null, bathrooms: null, amenities: null, images: null, host: null, propertyType: 'other', location: { lat: null, lng: null } });
    const fields = w.list.filter((x) => x.code === 'field_unavailable').map((x) => x.message.split(':')[0]);
    expect(fields).toEqual(expect.arrayContaining(['reviewCount', 'maxOccupancy', 'bedrooms', 'bathrooms', 'amenities', 'images', 'host', 'propertyType', 'location.lat/lng']));
  });

  it('an item whose ids name different listings is skipped, never returned under either id', () => {
    const w = new FieldWarnings('vrbo');
    expect(parseListing({ propertyId: '66001', listingNumber: 66002, propertyMetadata: { headline: 'X' } }, CTX, w)).toBeNull();
    expect(parseListing({ propertyId: '66001', detailPageUrl: '/66009?unitId=1', propertyMetadata: { headline: 'X' } }, CTX, w)).toBeNull();
    expect(parseListing({ propertyId: '../etc', propertyMetadata: { headline: 'X' } }, CTX, w)).toBeNull();
    expect(w.list.filter((x) => x.code === 'item_skipped')).toHaveLength(3);
    // the id comes from the detail page path when propertyId is absent
    expect(parseListing({ listingNumber: 4151294, detailPageUrl: '/4151294ha?unitId=4552455', propertyMetadata: { headline: 'X' } }, CTX, w)?.platformListingId).toBe('4151294ha');
  });

  it('a dated answer in another currency fails the leg (an undated one shows no money); a summary contradicting itself too', () => {
    const eur = structuredClone(FIXTURE);
    eur.data.results.listings[0]!.priceSummary = { formattedAmount: '€185', pricePeriodDescription: 'avg/night', edapEventJson: '{"eventcurrency":"EUR"}' };
    expect(() => parseSearchPage(eur, 1, 50, { ...CTX, dated: true }, new FieldWarnings('vrbo'))).toThrow(new LegFailure('failed', 'vrbo answered in EUR, not USD'));
    expect(() => parseSearchPage(eur, 1, 50, CTX, new FieldWarnings('vrbo'))).not.toThrow();
    expect(() => readPriceSummary({ formattedAmount: 'EUR 100', edapEventJson: '{"eventcurrency":"USD"}' }, 'USD')).toThrow(LegFailure);
  });

  it('amounts parse exactly whatever the digit grouping; a bare "$" is not a currency statement', () => {
    const read = (formattedAmount: string, hint = 'USD') => readPriceSummary({ formattedAmount }, hint);
    expect(read('$1,234.56')).toMatchObject({ amount: 1234.56, currency: null });
    expect(read('€1.234,56', 'EUR')).toMatchObject({ amount: 1234.56 });
    expect(read('1 234,56 €', 'EUR')).toMatchObject({ amount: 1234.56 });
    expect(read("CHF 1'234.50", 'CHF')).toMatchObject({ amount: 1234.5, currency: 'CHF' });
    expect(read('¥12,345', 'JPY')).toMatchObject({ amount: 12345 });
    expect(read('Rp 626.423', 'IDR')).toMatchObject({ amount: 626423 });
    expect(read('$7.5K')).toMatchObject({ amount: null });
    expect(readPriceSummary(null, 'USD')).toBeNull();
  });

  it('GraphQL errors without data fail the leg; a missing listings array too', () => {
    const w = new FieldWarnings('vrbo');
    expect(() => parseSearchPage({ errors: [{ message: 'rate limited' }], data: null }, 1, 50, CTX, w)).toThrow('vrbo answered GraphQL errors: rate limited');
    expect(() => parseSearchPage({ data: { results: { page: 1 } } }, 1, 50, CTX, w)).toThrow('vrbo answered without a listings array');
  });
});

describe('vrbo client and adapter', () => {
  it('declares search only; listing, price, availability and reviews rest on no recorded sample', () => {
    const a = createVrboAdapter(fixtureClient());
    expect([...a.operations]).toEqual(['search']);
    expect(a.platform).toBe('vrbo');
    expect(a.listing ?? a.price ?? a.availability ?? a.reviews).toBeUndefined();
    expect(() => createVrboAdapter(fixtureClient(), { siteUrl: 'https://evil.example' })).toThrow();
  });

  it('posts SearchRequestQuery to /serp/g, where the replay server finds the fixture', () => {
    const req = searchRequest(query({ location: 'Chicago, IL', checkIn: '2027-06-01', checkOut: '2027-06-04' }), 2, 50);
    expect(req).toMatchObject({ method: 'POST', path: SEARCH_PATH, body: { operationName: SEARCH_OPERATION } });
    const body = req.body as { variables: { request: Record<string, unknown> } };
    expect(body.variables.request).toMatchObject({ paging: { page: 2, pageSize: 50 }, q: 'Chicago, IL', dates: { arrivalDate: '2027-06-01', departureDate: '2027-06-04' }, coreFilters: { adults: 2, children: 0 } });
    expect(searchRequest(query(), 1, 50).body).not.toHaveProperty('variables.request.dates');
    expect(existsSync(path.join(FIXTURE_DIR, ...req.path.split('/').filter(Boolean), `${SEARCH_OPERATION}.json`))).toBe(true);
  });

  it('returns items from the offset, at most count, in platform order, with an honest hasMore', async () => {
    const a = createVrboAdapter(fixtureClient());
    const first = await a.search!({ query: query(), offset: 0, count: 3 }, signal);
    expect(first.items.map((p) => p.platformListingId)).toEqual(['90011', '90011ha', '77001']);
    expect(first.hasMore).toBe(true);
    const rest = await a.search!({ query: query(), offset: 3, count: 3 }, signal);
    expect(rest.items.map((p) => p.platformListingId)).toEqual(['58123']);
    expect(rest.hasMore).toBe(false);
  });

  it('applies the unified filters after retrieval, and says so', async () => {
    const a = createVrboAdapter(fixtureClient());
    const r = await a.search!({ query: query({ minBedrooms: 3 }), offset: 0, count: 10 }, signal);
    expect(r.items.map((p) => p.platformListingId)).toEqual(['90011ha', '58123']);
    expect(r.warnings).toContainEqual(expect.objectContaining({ code: 'filter_applied_after_retrieval', platform: 'vrbo' }));
    const pool = await a.search!({ query: query({ amenities: ['pool'], propertyTypes: ['apartment'] }), offset: 0, count: 10 }, signal);
    expect(pool.items.map((p) => p.platformListingId)).toEqual(['90011']);
    const rated = await a.search!({ query: query({ minGuestRating: 4.5, occupancy: { adults: 6, children: 0, childAges: [] } }), offset: 0, count: 10 }, signal);
    expect(rated.items.map((p) => p.platformListingId)).toEqual(['90011ha']);
    const cheap = await a.search!({ query: query({ checkIn: '2027-06-01', checkOut: '2027-06-04', priceMax: 200 }), offset: 0, count: 10 }, signal);
    expect(cheap).toMatchObject({ items: [], hasMore: false, warnings: [expect.objectContaining({ code: 'filter_unsupported' })] });
  });

  it('sorts by rating across everything it read (null ratings last) and keeps dated prices null', async () => {
    const a = createVrboAdapter(fixtureClient());
    const r = await a.search!({ query: query({ sort: 'rating_desc', checkIn: '2027-06-01', checkOut: '2027-06-04' }), offset: 0, count: 10 }, signal);
    expect(r.items.map((p) => p.platformListingId)).toEqual(['90011ha', '90011', '58123', '77001']);
    expect(r.items.every((p) => p.price === null)).toBe(true);
    expect(r.warnings.map((x) => x.code)).toContain('price_basis_unclear');
  });

  it('reads further pages only as needed, and reports where it stopped', async () => {
    const client = fakeClient((req) => synthetic(pageOf(req), 10, 5));
    const a = createVrboAdapter(client, { pageSize: 10, maxPages: 3 });
    const r = await a.search!({ query: query(), offset: 12, count: 5 }, signal);
    expect(r.items.map((p) => p.platformListingId)).toEqual(['100012', '100013', '100014', '100015', '100016']);
    expect(r.hasMore).toBe(true);
    expect(client.asked.map(pageOf)).toEqual([1, 2]);
    const deep = await a.search!({ query: query(), offset: 25, count: 10 }, signal);
    expect(deep.items).toHaveLength(5);
    expect(deep.hasMore).toBe(false);
    expect(deep.warnings).toContainEqual(expect.objectContaining({ code: 'results_truncated' }));
  });

  it('a page the platform did not answer for (clamped) ends the results instead of repeating them', async () => {
    const client = fakeClient(() => synthetic(1, 10, 1_000));
    const r = await createVrboAdapter(client, { pageSize: 10 }).search!({ query: query(), offset: 0, count: 15 }, signal);
    expect(r.items).toHaveLength(10);
    expect(r.hasMore).toBe(false);
  });

  it('a 404 from the search endpoint and a currency mismatch are failed legs', async () => {
    const missing = createVrboAdapter(fakeClient(() => new UpstreamNotFound()));
    await expect(missing.search!({ query: query(), offset: 0, count: 5 }, signal)).rejects.toThrow(new LegFailure('failed', 'vrbo search endpoint answered 404'));
    const a = createVrboAdapter(fixtureClient());
    await expect(a.search!({ query: query({ currency: 'EUR', checkIn: '2027-06-10', checkOut: '2027-06-12' }), offset: 0, count: 5 }, signal)).rejects.toThrow(new LegFailure('failed', 'vrbo answered in USD, not EUR'));
  });
});
