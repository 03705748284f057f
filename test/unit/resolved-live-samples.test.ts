import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { searchLeg as airbnbSearch } from '../../src/adapters/platforms/airbnb/search-leg.js';
import { searchLeg as bookingSearch } from '../../src/adapters/platforms/booking/search.js';
import { runSearch as googleSearch } from '../../src/adapters/platforms/google/search.js';
import { parseSearchPage as parseGoogle } from '../../src/adapters/platforms/google/parse-search.js';
import { searchAreaOf, type SearchArea } from '../../src/domain/geo/area.js';
import { greatCircleKm, roundKm } from '../../src/domain/geo/great-circle.js';
import { searchStays } from '../../src/domain/operations/search.js';
import type { SearchLegRequest, SearchQuery } from '../../src/domain/ports/platform.js';

/**
 * Issue 25 items 1 and 7 on the recorded search answers: distances and the area are measured on
 * the platforms' own coordinates, and no place the answer does not state is invented: no
 * recorded search answer names the place or area it searched.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const SAMPLES = [path.resolve(ROOT, '../shared/upstream-samples'), path.resolve(ROOT, '../../shared/upstream-samples')].find(existsSync);
const load = (file: string): unknown => JSON.parse(readFileSync(path.join(SAMPLES!, file), 'utf8'));

const query = (location: string, area: SearchArea, over: Partial<SearchQuery> = {}): SearchQuery => ({
  location, area, checkIn: null, checkOut: null, occupancy: { adults: 2, children: 0, childAges: [] }, rooms: 1, propertyTypes: [], amenities: [],
  minBedrooms: null, priceMin: null, priceMax: null, minGuestRating: null, refundable: null, board: null, platforms: [], sort: 'recommended', currency: 'USD', ...over,
});
const leg = (q: SearchQuery): SearchLegRequest => ({ query: q, offset: 0, count: 50 });
const km = (a: { lat: number; lng: number }, p: { location: { lat: number | null; lng: number | null } }) => roundKm(greatCircleKm(a, { lat: p.location.lat!, lng: p.location.lng! }));

describe.skipIf(!SAMPLES)('recorded search answers', () => {
  it('airbnb (anon-graphql-StaysSearch-response-lyon-3results.json): distances from "lat,lng", a radius after retrieval, no place stated', async () => {
    const centre = { lat: 45.764, lng: 4.8357 };
    const run = (q: SearchQuery) => airbnbSearch(leg(q), { fetchPage: async () => load('airbnb/anon-graphql-StaysSearch-response-lyon-3results.json'), siteUrl: 'https://www.airbnb.com', maxPages: 1 }, { currency: 'USD', stay: null });
    const all = await run(query('45.764,4.8357', searchAreaOf('45.764,4.8357', null, null)));
    expect(all.items).toHaveLength(3);
    for (const p of all.items) expect(p.distanceKm).toBe(km(centre, p));
    expect(all.place).toBeUndefined();
    const nearest = Math.min(...all.items.map((p) => p.distanceKm!));
    const near = await run(query('45.764,4.8357', searchAreaOf('45.764,4.8357', nearest + 0.01, null), { sort: 'distance_asc' }));
    expect(near.items.map((p) => p.distanceKm)).toEqual(all.items.map((p) => p.distanceKm!).filter((d) => d <= nearest + 0.01));
    expect(near.warnings.map((w) => w.code)).toContain('filter_applied_after_retrieval');
    // A place name: the answer does not say where Lyon is, so there is no centre.
    const named = await run(query('lyon', searchAreaOf('lyon', null, null)));
    expect(named.items.every((p) => p.distanceKm === null)).toBe(true);
    expect(named.warnings.map((w) => w.code)).toContain('distance_unavailable');
    expect((await run(query('lyon', searchAreaOf('lyon', 2, null)))).warnings.map((w) => w.code)).toEqual(['filter_not_supported']);
  });

  it('google (serpapi-google_hotels-search-london-usd.json): every property measured from a bbox centre, kept when inside it', async () => {
    const json = load('google/serpapi-google_hotels-search-london-usd.json');
    const box = { swLat: 51.49, swLng: -0.2, neLat: 51.53, neLng: -0.1 };
    const area = searchAreaOf(null, null, box);
    const run = (q: SearchQuery) => googleSearch(leg(q), async () => parseGoogle(json, { currency: 'USD', stay: null }));
    const all = await run(query('51.51,-0.15', searchAreaOf('51.51,-0.15', null, null)));
    const boxed = await run(query('51.51,-0.15', area));
    const inside = all.items.filter((p) => p.location.lat! >= 51.49 && p.location.lat! <= 51.53 && p.location.lng! >= -0.2 && p.location.lng! <= -0.1);
    expect(inside.length).toBeGreaterThan(0);
    expect(inside.length).toBeLessThan(all.items.length);
    expect(boxed.items.map((p) => p.id)).toEqual(inside.map((p) => p.id));
    for (const p of boxed.items) expect(p.distanceKm).toBe(km({ lat: 51.51, lng: -0.15 }, p));
    expect(boxed.place).toBeUndefined();
  });

  it('booking (graphql-searchresults-results-array-malta-usd.json): no coordinates, so distances are null and an area gives nothing, each said', async () => {
    const results = load('booking/graphql-searchresults-results-array-malta-usd.json');
    const fetch = async () => ({ data: { searchQueries: { search: { pagination: { nbResultsTotal: 50 }, results } } } });
    const plain = await bookingSearch(fetch, leg(query('35.9,14.5', searchAreaOf('35.9,14.5', null, null))), { pageSize: 50, maxScan: 50 });
    expect(plain.items.length).toBeGreaterThan(40);
    expect(plain.items.every((p) => p.distanceKm === null)).toBe(true);
    expect(plain.warnings.find((w) => w.code === 'distance_unavailable')!.message).toMatch(/no coordinates/);
    const boxed = await bookingSearch(fetch, leg(query('35.9,14.5', searchAreaOf('35.9,14.5', 10, null))), { pageSize: 50, maxScan: 50 });
    // Read and tested by the same coordinates as distanceKm: none has any, so none is kept, said once.
    expect(boxed.items).toEqual([]);
    expect(boxed.warnings.filter((w) => w.code.startsWith('filter_') || w.code === 'distance_unavailable').map((w) => w.message)).toEqual(['booking: search results carry no coordinates, so radiusKm cannot be applied; booking returned no properties for it.']);
    expect(plain.place).toBeUndefined();
  });

  it('booking (the same answer, three results given coordinates): a radius keeps those inside by them and counts the rest left out', async () => {
    type Result = { basicPropertyData: { location: Record<string, unknown> } };
    const results = (load('booking/graphql-searchresults-results-array-malta-usd.json') as Result[]).map((r, i) =>
      i < 3 ? { ...r, basicPropertyData: { ...r.basicPropertyData, location: { ...r.basicPropertyData.location, latitude: 35.9 + i * 0.05, longitude: 14.5 } } } : r);
    const fetch = async () => ({ data: { searchQueries: { search: { pagination: { nbResultsTotal: results.length }, results } } } });
    const near = await bookingSearch(fetch, leg(query('35.9,14.5', searchAreaOf('35.9,14.5', 6, null))), { pageSize: 50, maxScan: 50 });
    expect(near.items.map((p) => p.distanceKm)).toEqual([0, 5.56]);
    const left = near.warnings.find((w) => w.code === 'filter_not_supported')!.message;
    expect(left).toBe(`booking: ${results.length - 3} of ${results.length} search results carry no coordinates, so radiusKm cannot be applied to them; they were left out.`);
  });

  it('a live search over these answers states the area but no place, and no ambiguous_location', async () => {
    const adapter = { platform: 'google' as const, operations: new Set(['search'] as const), search: (req: SearchLegRequest) => googleSearch(req, async () => parseGoogle(load('google/serpapi-google_hotels-search-london-usd.json'), { currency: 'USD', stay: null })) };
    const env = {
      adapters: { get: () => adapter, supporting: () => ['google' as const] },
      now: new Date('2025-03-01T00:00:00Z'), cursorSecret: 'test-secret-test-secret-test-secret', beforeUpstream: () => {},
      cache: { get: async () => null, set: async () => {} }, keyEnv: 'live' as const, legDeadlineMs: 5_000, observeLeg: () => {},
    };
    const result = await searchStays(env as never, {
      location: '51.51,-0.15', radiusKm: 3, bbox: null, checkIn: null, checkOut: null, occupancy: { adults: 2, children: 0, childAges: [] }, rooms: 1,
      propertyTypes: [], amenities: [], minBedrooms: null, priceMin: null, priceMax: null, minGuestRating: null, refundable: null, board: null, platforms: ['google'], sort: 'distance_asc', currency: 'USD', limit: 20, cursor: null,
    });
    expect(result.resolved).toEqual({ area: { centre: { lat: 51.51, lng: -0.15 }, radiusKm: 3, bbox: null } });
    expect(result.warnings.map((w) => w.code)).not.toContain('ambiguous_location');
    const d = result.data.map((p) => p.distanceKm!);
    expect(d).toEqual([...d].sort((a, b) => a - b));
    expect(Math.max(...d)).toBeLessThanOrEqual(3);
  });
});
