import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createBookingAdapter } from '../../src/adapters/platforms/booking/index.js';
import { parseBookingId } from '../../src/adapters/platforms/booking/ids.js';
import { parseCalendarAnswer } from '../../src/adapters/platforms/booking/parse-availability.js';
import { stayPriceOf } from '../../src/adapters/platforms/booking/parse-price.js';
import { hotelItem, parseSearchItem, parseSearchPage } from '../../src/adapters/platforms/booking/parse-search.js';
import { UpstreamNotFound, type UpstreamClient, type UpstreamRequest } from '../../src/adapters/platforms/http/upstream.js';
import { FieldWarnings, parseMoney } from '../../src/adapters/platforms/parse-support.js';
import { LegFailure, type SearchQuery } from '../../src/domain/ports/platform.js';

const FIXTURES = path.resolve(import.meta.dirname, '../../fixtures/replay/booking/dml/graphql');
const fixture = (op: string): any => JSON.parse(readFileSync(path.join(FIXTURES, `${op}.json`), 'utf8'));
const signal = new AbortController().signal;
const OCC = { adults: 2, children: 0, childAges: [] };

interface Body {
  operationName: string;
  variables: { input: any };
}

/**
 * Stands in for Booking.com without HTTP: answers each GraphQL operation from the project's
 * fixtures, pages FullSearch and ReviewList like the platform, and records the requests.
 */
function fakeBooking(over: { search?: (input: any) => unknown; results?: unknown[] } = {}) {
  const calls: UpstreamRequest[] = [];
  const client: UpstreamClient = {
    async json(req) {
      calls.push(req);
      const body = req.body as Body;
      const input = body.variables.input;
      if (body.operationName === 'FullSearch') {
        if (over.search) return over.search(input);
        const all: unknown[] = over.results ?? fixture('FullSearch').data.searchQueries.search.results;
        const { offset, rowsPerPage } = input.pagination;
        return { data: { searchQueries: { search: { pagination: { nbResultsTotal: all.length }, results: all.slice(offset, offset + rowsPerPage) } } } };
      }
      if (body.operationName === 'ReviewList') {
        const list = fixture('ReviewList').data.reviewListFrontend;
        return { data: { reviewListFrontend: { ...list, reviewCard: list.reviewCard.slice(input.skip, input.skip + input.limit) } } };
      }
      return fixture(body.operationName);
    },
    close: async () => {},
  };
  const bodies = () => calls.map((c) => c.body as Body);
  return { client, calls, bodies, adapter: createBookingAdapter(client, { now: () => new Date('2027-01-15T10:00:00Z') }) };
}

function query(over: Partial<SearchQuery> = {}): SearchQuery {
  return {
    location: 'Valletta', area: { centre: null, radiusKm: null, box: null }, checkIn: '2027-06-10', checkOut: '2027-06-14', occupancy: OCC, rooms: 1, propertyTypes: [], amenities: [],
    minBedrooms: null, priceMin: null, priceMax: null, minGuestRating: null, refundable: null, board: null, platforms: ['booking'], sort: 'recommended', currency: 'USD', ...over,
  };
}
const ids = (items: { platformListingId: string }[]) => items.map((p) => p.platformListingId);

describe('booking rules', () => {
  it('a field that cannot be extracted is null with a warning, never 0 or []', () => {
    const w = new FieldWarnings('booking');
    const p = parseSearchItem({ basicPropertyData: { id: 77 }, displayName: { text: 'Bare Minimum Inn' } }, { currency: 'USD', nights: 2 }, w)!;
    expect(p).toMatchObject({ id: 'stays_booking_77', url: 'https://www.booking.com/searchresults.html?dest_type=hotel&dest_id=77', propertyType: 'other' });
    expect(p).toMatchObject({ guestRating: null, reviewCount: null, bedrooms: null, bathrooms: null, amenities: null, images: null, host: null, price: null, location: { city: null, country: null } });
    const fields = w.list.filter((x) => x.code === 'field_unavailable').map((x) => x.message.split(':')[0]);
    expect(fields).toEqual(expect.arrayContaining(['guestRating', 'reviewCount', 'bedrooms', 'bathrooms', 'amenities', 'images', 'host', 'price', 'location.city', 'propertyType']));
    expect(parseSearchItem({ basicPropertyData: { id: 78 } }, { currency: 'USD', nights: null }, w)).toBeNull();
    expect(w.list.some((x) => x.code === 'item_skipped')).toBe(true);
  });

  it('an answer for another listing is refused', () => {
    const page = parseSearchPage(fixture('FullSearch'));
    expect(() => hotelItem(page, 999)).toThrow(new LegFailure('failed', 'booking answered for listing 4400101, not 999'));
    expect(hotelItem({ results: [], total: 0 }, 999)).toBeNull();
    expect(() => parseCalendarAnswer(fixture('AvailabilityCalendar'), '4400102', new FieldWarnings('booking'))).toThrow(/answered for listing 4400101, not 4400102/);
  });

  it('an answer in another currency is a failed leg, never relabelled', () => {
    const item = fixture('FullSearch').data.searchQueries.search.results[0];
    expect(() => stayPriceOf(item, 4, 'GBP', new FieldWarnings('booking'))).toThrow(new LegFailure('failed', 'booking answered in USD, not GBP'));
  });

  it('printed amounts parse exactly in any digit grouping; abbreviated ones are no price', () => {
    const priced = (amount: string, currency: string, excluded?: string) => ({
      priceDisplayInfoIrene: {
        displayPrice: { amountPerStay: { amount, currency } },
        excludedCharges: { excludeChargesList: excluded ? [{ chargeType: 12, chargeInclusion: 'EXCLUDED', amountPerStay: { amount: excluded, currency } }] : [] },
      },
    });
    const w = new FieldWarnings('booking');
    expect(stayPriceOf(priced('€1.234,56', 'EUR', '€7,50'), 2, 'EUR', w)).toMatchObject({ totalPrice: 1242.06, nightlyPrice: 617.28, fees: { taxes: 7.5 } });
    expect(stayPriceOf(priced('1 234,56 €', 'EUR'), 1, 'EUR', w)?.totalPrice).toBe(1234.56);
    expect(stayPriceOf(priced('US$12,345.67', 'USD'), 1, 'USD', w)?.totalPrice).toBe(12345.67);
    expect(stayPriceOf(priced('Rp 1.626.423', 'IDR'), 1, 'IDR', w)?.totalPrice).toBe(1626423);
    expect(stayPriceOf(priced('₹7.5K', 'INR'), 1, 'INR', w)).toBeNull();
    expect(parseMoney('₹7.5K')).toBeNull();
    expect(stayPriceOf({ priceDisplayInfoIrene: { displayPrice: { amountPerStay: { amountUnformatted: 100.005, currency: 'USD' } } } }, 1, 'USD', w)?.totalPrice).toBe(100.01);
    expect(w.list.map((x) => x.code)).toContain('price_basis_unclear');
  });

  it('native ids: numeric hotel ids and <cc>/<page> names, nothing else', () => {
    expect(parseBookingId('4400101')).toEqual({ kind: 'hotel', hotelId: 4400101 });
    expect(parseBookingId('mt/harbour-lantern-suites')).toEqual({ kind: 'page', countryCode: 'mt', pageName: 'harbour-lantern-suites' });
    for (const bad of ['', '0', '12ab', 'MT/x', 'mt/../x', 'mt/x/y', '../x', '1'.repeat(13)]) expect(parseBookingId(bad)).toBeNull();
  });
});

describe('booking adapter against the fixtures (no HTTP)', () => {
  it('declares search, availability, reviews, price and listing (from the hotel page JSON-LD)', () => {
    const { adapter } = fakeBooking();
    expect([...adapter.operations].sort()).toEqual(['availability', 'listing', 'price', 'reviews', 'search']);
  });

  it('search: the platform order and paging, with the request in Booking.com form', async () => {
    const { adapter, calls, bodies } = fakeBooking();
    const res = await adapter.search!({ query: query(), offset: 1, count: 2 }, signal);
    expect(ids(res.items)).toEqual(['4400102', '4400103']);
    expect(res.hasMore).toBe(true);
    expect(calls[0]).toMatchObject({ method: 'POST', path: '/dml/graphql', query: { lang: 'en-us', selected_currency: 'USD' } });
    expect(bodies()[0]).toMatchObject({
      operationName: 'FullSearch',
      variables: { input: { location: { searchString: 'Valletta' }, dates: { checkin: '2027-06-10', checkout: '2027-06-14' }, nbAdults: 2, nbRooms: 1, pagination: { offset: 1, rowsPerPage: 2 } } },
    });
    const last = await adapter.search!({ query: query(), offset: 2, count: 5 }, signal);
    expect(ids(last.items)).toEqual(['4400103', '4400104']);
    expect(last.hasMore).toBe(false);
  });

  it('search: filters and sorts applied after retrieval say so', async () => {
    const { adapter } = fakeBooking();
    const hotels = await adapter.search!({ query: query({ propertyTypes: ['hotel'] }), offset: 0, count: 10 }, signal);
    expect(ids(hotels.items)).toEqual(['4400102']);
    expect(hotels.warnings.map((x) => x.code)).toContain('filter_applied_after_retrieval');
    const rated = await adapter.search!({ query: query({ minGuestRating: 8.9 }), offset: 0, count: 10 }, signal);
    expect(ids(rated.items)).toEqual(['4400101', '4400102']);
    const cheap = await adapter.search!({ query: query({ sort: 'price_asc' }), offset: 0, count: 2 }, signal);
    expect(ids(cheap.items)).toEqual(['4400103', '4400101']);
    expect(cheap.hasMore).toBe(true);
    const budget = await adapter.search!({ query: query({ priceMax: 110 }), offset: 0, count: 10 }, signal);
    expect(ids(budget.items)).toEqual(['4400101', '4400103']);
    const withPool = await adapter.search!({ query: query({ amenities: ['pool'] }), offset: 0, count: 10 }, signal);
    expect(withPool.items).toEqual([]);
    expect(withPool.warnings.map((x) => x.code)).toEqual(['filter_not_supported']);
  });

  it('search: a scan that stops short of the total warns and reads pages of the set size', async () => {
    const base = fixture('FullSearch').data.searchQueries.search.results[1];
    const many = Array.from({ length: 60 }, (_, i) => ({ ...base, basicPropertyData: { ...base.basicPropertyData, id: 5000 + i } }));
    const { client, calls } = fakeBooking({ results: many });
    const adapter = createBookingAdapter(client, { searchPageSize: 20, maxSearchScan: 40 });
    const res = await adapter.search!({ query: query({ minGuestRating: 9 }), offset: 0, count: 100 }, signal);
    expect(res.items).toHaveLength(40);
    expect(calls).toHaveLength(2);
    expect(res.warnings.find((x) => x.code === 'results_truncated')?.message).toMatch(/first 40 of 60/);
  });

  it('search: short pages are followed while the total says more exist (issue 13: paging trusts the total)', async () => {
    const base = fixture('FullSearch').data.searchQueries.search.results[1];
    const many = Array.from({ length: 30 }, (_, i) => ({ ...base, basicPropertyData: { ...base.basicPropertyData, id: 6000 + i } }));
    // The platform sends at most 12 per page whatever is asked, and says 30 exist.
    const search = (input: { pagination: { offset: number; rowsPerPage: number } }) => ({
      data: { searchQueries: { search: { pagination: { nbResultsTotal: 30 }, results: many.slice(input.pagination.offset, input.pagination.offset + Math.min(12, input.pagination.rowsPerPage)) } } },
    });
    const { client, calls } = fakeBooking({ search });
    const adapter = createBookingAdapter(client, { searchPageSize: 20, maxSearchScan: 100 });
    const res = await adapter.search!({ query: query({ minGuestRating: 1 }), offset: 0, count: 100 }, signal);
    expect(res.items).toHaveLength(30);
    expect(calls).toHaveLength(3);
    expect(res.warnings.map((x) => x.code)).not.toContain('results_truncated');
    const plain = await adapter.search!({ query: query(), offset: 0, count: 20 }, signal);
    expect(plain.items).toHaveLength(12);
    expect(plain.hasMore).toBe(true);
  });

  it('availability: a hotel id is resolved to its page, days are sorted and windowed', async () => {
    const { adapter, bodies } = fakeBooking();
    const res = await adapter.availability!({ listingId: '4400101', startDate: '2027-06-04', endDate: '2027-06-08', currency: 'USD' }, signal);
    expect(res!.value.map((d) => [d.date, d.available, d.checkIn, d.checkOut, d.bookable])).toEqual([
      ['2027-06-04', true, true, true, true],
      ['2027-06-05', false, false, true, false],
      ['2027-06-06', false, false, null, false],
      ['2027-06-07', true, true, null, true],
      ['2027-06-08', true, true, true, true],
    ]);
    expect(bodies().map((b) => b.operationName)).toEqual(['FullSearch', 'AvailabilityCalendar']);
    expect(bodies()[0]!.variables.input.location).toEqual({ destType: 'HOTEL', destId: 4400101 });
    expect(bodies()[1]!.variables.input).toMatchObject({
      pagenameDetails: { countryCode: 'mt', pagename: 'harbour-lantern-suites' },
      searchConfig: { searchConfigDate: { startDate: '2027-06-04', amountOfDays: 5 } },
    });
  });

  it('availability: page ids go straight to the calendar; long windows are asked in 61-day parts', async () => {
    const { adapter, bodies } = fakeBooking();
    const res = await adapter.availability!({ listingId: 'mt/harbour-lantern-suites', startDate: '2027-06-01', endDate: '2027-08-15', currency: 'USD' }, signal);
    expect(bodies().map((b) => b.variables.input.searchConfig.searchConfigDate)).toEqual([
      { startDate: '2027-06-01', amountOfDays: 61 },
      { startDate: '2027-08-01', amountOfDays: 15 },
    ]);
    expect(res!.value).toHaveLength(20);
    expect(res!.warnings.map((x) => x.code)).toContain('calendar_incomplete');
  });

  it('availability: unknown, malformed and missing listings', async () => {
    const listed = fakeBooking({ search: () => ({ data: { searchQueries: { search: { results: [] } } } }) });
    expect(await listed.adapter.availability!({ listingId: '4400999', startDate: '2027-06-01', endDate: '2027-06-02', currency: 'USD' }, signal)).toBeNull();
    const wrong = fakeBooking();
    await expect(wrong.adapter.availability!({ listingId: '4400999', startDate: '2027-06-01', endDate: '2027-06-02', currency: 'USD' }, signal)).rejects.toThrow(/answered for listing 4400101, not 4400999/);
    const none = fakeBooking();
    expect(await none.adapter.availability!({ listingId: 'not an id', startDate: '2027-06-01', endDate: '2027-06-02', currency: 'USD' }, signal)).toBeNull();
    expect(none.calls).toHaveLength(0);
    const gone = createBookingAdapter({ json: async () => { throw new UpstreamNotFound(); }, close: async () => {} });
    expect(await gone.reviews!({ listingId: '4400101', offset: 0, count: 5, language: null, minRating: null, q: null, summary: false, sort: 'recent' }, signal)).toBeNull();
    const broken = createBookingAdapter({ json: async () => ({ errors: [{ message: 'PersistedQueryNotFound' }] }), close: async () => {} });
    await expect(broken.search!({ query: query(), offset: 0, count: 5 }, signal)).rejects.toThrow(new LegFailure('failed', 'booking answered without data: PersistedQueryNotFound'));
  });

  it('reviews: Booking.com paging when unfiltered; filters and rating orders over the newest reviews', async () => {
    const { adapter, bodies } = fakeBooking();
    const page = await adapter.reviews!({ listingId: '4400101', offset: 0, count: 2, language: null, minRating: null, q: null, summary: false, sort: 'recent' }, signal);
    expect(page!.reviews.map((r) => r.reviewId)).toEqual(['fx0001aa', 'fx0002bb']);
    expect(page!.hasMore).toBe(true);
    expect(bodies()[0]).toMatchObject({ operationName: 'ReviewList', variables: { input: { hotelId: 4400101, skip: 0, limit: 2, sorter: 'NEWEST_FIRST' } } });
    const english = await adapter.reviews!({ listingId: '4400101', offset: 0, count: 10, language: 'en', minRating: null, q: null, summary: false, sort: 'recent' }, signal);
    expect(english!.reviews.map((r) => r.reviewId)).toEqual(['fx0001aa', 'fx0002bb']);
    expect(english!.warnings.map((x) => x.code)).toContain('filter_applied_after_retrieval');
    const best = await adapter.reviews!({ listingId: '4400101', offset: 0, count: 2, language: null, minRating: 8, q: null, summary: false, sort: 'rating_desc' }, signal);
    expect(best!.reviews.map((r) => [r.reviewId, r.rating])).toEqual([['fx0003cc', 10], ['fx0001aa', 9]]);
    expect(best!.hasMore).toBe(true);
  });

  it('reviews: a page id is resolved to its hotel id through the calendar', async () => {
    const { adapter, bodies } = fakeBooking();
    const res = await adapter.reviews!({ listingId: 'mt/harbour-lantern-suites', offset: 0, count: 3, language: null, minRating: null, q: null, summary: false, sort: 'recent' }, signal);
    expect(res!.reviews).toHaveLength(3);
    expect(res!.reviews[0]!.listingId).toBe('mt/harbour-lantern-suites');
    expect(bodies()[0]!.variables.input.searchConfig.searchConfigDate).toEqual({ startDate: '2027-01-15', amountOfDays: 1 });
    expect(bodies()[1]!.variables.input).toMatchObject({ hotelId: 4400101, hotelCountryCode: 'mt' });
  });

  it('price: from a dated search for that hotel, with fees and the occupancy echoed', async () => {
    const { adapter, bodies } = fakeBooking();
    const stay = { checkIn: '2027-06-10', checkOut: '2027-06-14', occupancy: { adults: 2, children: 1, childAges: [6] } };
    const res = await adapter.price!({ listingId: '4400101', currency: 'USD', ...stay }, signal);
    expect(res!.value).toEqual({
      platform: 'booking', listingId: '4400101', checkIn: '2027-06-10', checkOut: '2027-06-14', currency: 'USD', basis: 'all_in', nightlyPrice: 103.13, totalPrice: 416, nights: 4,
      fees: expect.objectContaining({ cleaning: null, service: null, taxes: 30.49 }), offers: [], context: null, occupancy: stay.occupancy, source: 'booking', url: 'https://www.booking.com/hotel/mt/harbour-lantern-suites.html',
    });
    expect(bodies()[0]!.variables.input).toMatchObject({ location: { destType: 'HOTEL', destId: 4400101 }, nbChildren: 1, childrenAges: [6], dates: { checkin: '2027-06-10' } });
    await expect(adapter.price!({ listingId: '4400101', currency: 'EUR', ...stay }, signal)).rejects.toThrow(new LegFailure('failed', 'booking answered in USD, not EUR'));
    await expect(adapter.price!({ listingId: '4400104', currency: 'USD', ...stay }, signal)).rejects.toThrow(/no price for listing 4400104: price: sold out/);
    await expect(adapter.price!({ listingId: '999', currency: 'USD', ...stay }, signal)).rejects.toThrow(/answered for listing 4400101, not 999/);
    const byPage = await adapter.price!({ listingId: 'mt/bastion-rock', currency: 'USD', ...stay }, signal).catch((e: Error) => e.message);
    // The calendar fixture answers for 4400101, so a price asked for another page is that hotel's, by id.
    expect(byPage).toMatchObject({ value: { listingId: 'mt/bastion-rock', totalPrice: 416 } });
  });
});
