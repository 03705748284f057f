import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAirbnbAdapter } from '../../src/adapters/platforms/airbnb/index.js';
import { amountOf, parseDisplayPrice, parseListing, parseSearchResult, ratingAndCount } from '../../src/adapters/platforms/airbnb/parse.js';
import { UpstreamNotFound, type UpstreamClient, type UpstreamRequest } from '../../src/adapters/platforms/http/upstream.js';
import { FieldWarnings } from '../../src/adapters/platforms/parse-support.js';
import { LegFailure, type SearchQuery } from '../../src/domain/ports/platform.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const REPLAY = path.resolve(ROOT, 'fixtures/replay/airbnb');
const signal = new AbortController().signal;
const SITE = 'https://www.airbnb.com';
const b64 = (s: string) => Buffer.from(s).toString('base64');
const safe = (s: string) => s.replace(/[^A-Za-z0-9_.-]/g, '_');

/** Answers like the replay server does from the project fixtures (path + operationName + variables.id), without HTTP. */
function fixtureClient(): UpstreamClient & { seen: UpstreamRequest[] } {
  const seen: UpstreamRequest[] = [];
  return {
    seen,
    async json(req) {
      seen.push(req);
      const base = path.join(REPLAY, ...req.path.split('/').filter(Boolean), safe(String(req.query?.operationName)));
      const vars = (req.body as { variables?: { id?: string; request?: { listingId?: string } } }).variables;
      const id = vars?.id ?? vars?.request?.listingId;
      for (const file of [...(id ? [path.join(base, `${safe(id)}.json`)] : []), `${base}.json`]) {
        try {
          return JSON.parse(readFileSync(file, 'utf8'));
        } catch {
          /* next */
        }
      }
      throw new UpstreamNotFound();
    },
    close: async () => {},
  };
}

const query = (over: Partial<SearchQuery> = {}): SearchQuery => ({
  location: 'Lisbon', area: { centre: null, radiusKm: null, box: null }, checkIn: '2027-06-10', checkOut: '2027-06-14', occupancy: { adults: 2, children: 0, childAges: [] }, rooms: 1,
  propertyTypes: [], amenities: [], minBedrooms: null, priceMin: null, priceMax: null, minGuestRating: null, refundable: null, board: null,
  platforms: ['airbnb'], sort: 'recommended', currency: 'USD', ...over,
});
const STAY = { checkIn: '2027-06-10', checkOut: '2027-06-14', occupancy: { adults: 2, children: 0, childAges: [] } };

describe('airbnb rules', () => {
  it('a field that cannot be extracted is null with a warning, never 0 or []', () => {
    const w = new FieldWarnings('airbnb');
    const bare = { data: { presentation: { stayProductDetailPage: { sections: {
      sections: [{ sectionComponentType: 'TITLE_DEFAULT', section: { title: 'Bare listing' } }],
      metadata: { loggingContext: { eventDataLogging: { listingId: '42' } } },
    } } } } };
    const p = parseListing(bare, '42', SITE, w)!;
    expect(p).toMatchObject({ name: 'Bare listing', propertyType: 'other', guestRating: null, reviewCount: null, maxOccupancy: null, bedrooms: null, bathrooms: null, amenities: null, images: null, host: null });
    expect(p.location).toEqual({ lat: null, lng: null, city: null, region: null, country: null });
    const missing = w.list.filter((x) => x.code === 'field_unavailable').map((x) => x.message.split(':')[0]);
    expect(missing).toEqual(expect.arrayContaining(['amenities', 'images', 'host', 'bedrooms', 'bathrooms', 'maxOccupancy', 'guestRating', 'reviewCount', 'location.country']));
  });

  it('a response for another listing id is a failed leg', () => {
    const other = { data: { presentation: { stayProductDetailPage: { sections: { sections: [{ sectionComponentType: 'TITLE_DEFAULT', section: { title: 'X' } }], metadata: { loggingContext: { eventDataLogging: { listingId: '7' } } } } } } } };
    expect(() => parseListing(other, '8', SITE, new FieldWarnings('airbnb'))).toThrow(new LegFailure('failed', 'airbnb answered for listing 7, not 8'));
  });

  it('a price in another currency is a failed leg, never relabelled', () => {
    const card = {
      demandStayListing: { id: b64('DemandStayListing:5') }, title: 'Apartment in Mitte', nameLocalized: { localizedStringWithTranslationPreference: 'Flat' },
      listingParamOverrides: { checkin: '2027-06-10', checkout: '2027-06-14', adults: 2 },
      structuredDisplayPrice: { primaryLine: { price: '€500', qualifier: 'total' }, explanationData: { priceDetails: [{ items: [{ description: '4 nights x €125.00', priceString: '€500.00' }] }] } },
    };
    const ctx = { currency: 'USD', siteUrl: SITE, stay: { checkIn: '2027-06-10', checkOut: '2027-06-14', adults: 2, children: 0 } };
    expect(() => parseSearchResult(card, ctx, new FieldWarnings('airbnb'))).toThrow('airbnb answered in EUR, not USD');
    expect(parseSearchResult(card, { ...ctx, currency: 'EUR' }, new FieldWarnings('airbnb'))!.price?.totalPrice).toBe(500);
  });

  it('amounts parse exactly whatever the digit grouping', () => {
    expect(amountOf('$2,234.69', 'USD')).toBe(2234.69);
    expect(amountOf('1\u202f234,56\u00a0€', 'EUR')).toBe(1234.56);
    expect(amountOf('€1.234,56', 'EUR')).toBe(1234.56);
    expect(amountOf('€1.234', 'EUR')).toBe(1234);
    expect(amountOf("CHF 1'234.50", 'CHF')).toBe(1234.5);
    expect(amountOf('¥12,345', 'JPY')).toBe(12345);
    expect(amountOf('₩1,234,567', 'KRW')).toBe(1234567);
    expect(amountOf('-$34.70', 'USD')).toBe(-34.7);
    expect(ratingAndCount('4,95 (1\u202f204)')).toEqual({ rating: 4.95, count: 1204 });
    expect(ratingAndCount('New')).toEqual({ rating: null, count: null });
  });

  it('a euro breakdown with dot grouping gives the exact total', () => {
    const sdp = { primaryLine: { price: '5.038 €', qualifier: 'total' }, explanationData: { priceDetails: [
      { items: [{ description: '4 nights x 1.234,50 €', priceString: '4.938,00 €' }, { description: 'Cleaning fee', priceString: '100,00 €' }] },
      { items: [{ __typename: 'HighlightExplanationLineItem', description: 'Total', priceString: '5.038,00 €' }] },
    ] } };
    expect(parseDisplayPrice(sdp, { currency: 'EUR', nights: 4 }, new FieldWarnings('airbnb'), 'x')).toEqual({
      currency: 'EUR', basis: 'all_in', nightlyPrice: 1234.5, totalPrice: 5038, nights: 4, fees: { cleaning: 100, service: null, taxes: null, items: [{ kind: 'cleaning', name: 'Cleaning fee', amount: 100, included: true, payAtProperty: null }] },
    });
  });

  it('a price whose basis is unclear is null with price_basis_unclear', () => {
    const cases = [
      { primaryLine: { price: '$500', qualifier: 'total' } }, // no breakdown
      { primaryLine: { price: '$120', qualifier: 'night' }, explanationData: { priceDetails: [{ items: [{ description: '4 nights x $120.00', priceString: '$480.00' }] }] } }, // no total
      { explanationData: { priceDetails: [{ items: [{ description: '4 nights x $120.00', priceString: '$480.00' }, { description: 'Total', priceString: '$700.00' }] }] } }, // does not add up
      { primaryLine: { price: '$480', qualifier: 'total' }, explanationData: { priceDetails: [{ items: [{ description: '3 nights x $160.00', priceString: '$480.00' }] }] } }, // other nights
    ];
    for (const sdp of cases) {
      const w = new FieldWarnings('airbnb');
      expect(parseDisplayPrice(sdp, { currency: 'USD', nights: 4 }, w, 'x')).toBeNull();
      expect(w.list.map((x) => x.code)).toEqual(['price_basis_unclear']);
    }
  });
});

describe('airbnb adapter on the project fixtures (no HTTP)', () => {
  it('declares the operations backed by recorded formats', () => {
    expect([...createAirbnbAdapter(fixtureClient()).operations].sort()).toEqual(['availability', 'listing', 'price', 'reviews', 'search']);
  });

  it('search: Airbnb request shape, window, order and an exact hasMore', async () => {
    const client = fixtureClient();
    const a = createAirbnbAdapter(client);
    const page1 = await a.search!({ query: query(), offset: 0, count: 2 }, signal);
    expect(page1.items.map((p) => p.platformListingId)).toEqual(['910000001', '910000002']);
    expect(page1.hasMore).toBe(true);
    const page2 = await a.search!({ query: query(), offset: 2, count: 2 }, signal);
    expect(page2.items.map((p) => p.platformListingId)).toEqual(['910000003', '910000004']);
    expect(page2.hasMore).toBe(false);
    const req = client.seen[0]!;
    expect(req).toMatchObject({ method: 'POST', path: '/api/v3/StaysSearch', query: { operationName: 'StaysSearch', currency: 'USD', locale: 'en' } });
    const raw = (req.body as { variables: { staysSearchRequest: { rawParams: { filterName: string; filterValues: string[] }[] } } }).variables.staysSearchRequest.rawParams;
    expect(raw).toEqual(expect.arrayContaining([{ filterName: 'query', filterValues: ['Lisbon'] }, { filterName: 'checkin', filterValues: ['2027-06-10'] }, { filterName: 'adults', filterValues: ['2'] }]));
  });

  it('search: filters after retrieval, sorts, native amenities, unsupported amenities', async () => {
    const client = fixtureClient();
    const a = createAirbnbAdapter(client);
    const hotels = await a.search!({ query: query({ propertyTypes: ['hotel'] }), offset: 0, count: 10 }, signal);
    expect(hotels.items.map((p) => p.name)).toEqual(['Hotel Miradouro Exemplo']);
    expect(hotels.warnings.map((w) => w.code)).toContain('filter_applied_after_retrieval');
    const cheap = await a.search!({ query: query({ sort: 'price_asc' }), offset: 0, count: 10 }, signal);
    expect(cheap.items.map((p) => p.price?.totalPrice ?? null)).toEqual([486.8, 625.53, 1233.55, null]);
    await a.search!({ query: query({ amenities: ['wifi', 'pool'] }), offset: 0, count: 10 }, signal);
    expect(JSON.stringify(client.seen.at(-1)!.body)).toContain('{"filterName":"amenities","filterValues":["4","7"]}');
    const spa = await a.search!({ query: query({ amenities: ['spa'] }), offset: 0, count: 10 }, signal);
    expect(spa).toEqual({ items: [], hasMore: false, warnings: [expect.objectContaining({ code: 'filter_unsupported' })] });
    await expect(a.search!({ query: query({ currency: 'EUR' }), offset: 0, count: 10 }, signal)).rejects.toThrow('not EUR');
  });

  it('listing and price: the price comes from the listing’s own dated search card', async () => {
    const client = fixtureClient();
    const a = createAirbnbAdapter(client);
    const listing = await a.listing!({ listingId: '910000001', currency: 'USD', stay: null }, signal);
    expect(listing!.value).toMatchObject({ id: 'stays_airbnb_910000001', name: 'Sunny test flat by the river', price: null });
    const pdpReq = client.seen.at(-1)!;
    expect((pdpReq.body as { variables: { id: string } }).variables.id).toBe(b64('StayListing:910000001'));
    const quote = await a.price!({ listingId: '910000001', currency: 'USD', ...STAY }, signal);
    expect(quote!.value).toMatchObject({ platform: 'airbnb', listingId: '910000001', nightlyPrice: 120.5, totalPrice: 625.53, nights: 4, fees: { cleaning: 45, service: 74.43, taxes: 24.1 }, source: 'airbnb' });
    const box = JSON.stringify(client.seen.at(-1)!.body);
    expect(box).toContain('"neLat"');
    await expect(a.price!({ listingId: '910000001', currency: 'USD', ...STAY, checkIn: '2027-06-11' }, signal)).rejects.toThrow(LegFailure);
    expect(await a.price!({ listingId: '910000099', currency: 'USD', ...STAY }, signal)).toBeNull();
    expect(await a.listing!({ listingId: '910000099', currency: 'USD', stay: null }, signal)).toBeNull();
    await expect(a.listing!({ listingId: '../etc', currency: 'USD', stay: null }, signal)).rejects.toThrow(LegFailure);
    expect(client.seen.some((r) => JSON.stringify(r).includes('../etc'))).toBe(false);
  });

  it('availability: the window only; an unknown listing is not found', async () => {
    const a = createAirbnbAdapter(fixtureClient());
    const cal = await a.availability!({ listingId: '910000001', startDate: '2027-06-28', endDate: '2027-07-02', currency: 'USD' }, signal);
    expect(cal!.value.map((d) => d.date)).toEqual(['2027-06-28', '2027-06-29', '2027-06-30', '2027-07-01', '2027-07-02']);
    // Airbnb's calendar states no price per night (issue 25): null, said once.
    expect(cal!.value.every((d) => d.nightlyPrice === null)).toBe(true);
    expect(cal!.warnings.map((w) => w.code)).toEqual(['nightly_price_unavailable']);
    const beyond = await a.availability!({ listingId: '910000001', startDate: '2027-07-30', endDate: '2027-08-02', currency: 'USD' }, signal);
    expect(beyond!.warnings.map((w) => w.code)).toEqual(['nightly_price_unavailable', 'availability_incomplete']);
    expect(await a.availability!({ listingId: '910000099', startDate: '2027-06-01', endDate: '2027-06-05', currency: 'USD' }, signal)).toBeNull();
  });

  it('reviews: offset window, language and rating filters, rating sort', async () => {
    const a = createAirbnbAdapter(fixtureClient());
    const first = await a.reviews!({ listingId: '910000001', offset: 0, count: 3, language: null, minRating: null, q: null, summary: false, sort: 'recent' }, signal);
    expect(first!.reviews.map((r) => r.reviewId)).toEqual(['5000001', '5000002', '5000003']);
    expect(first!.hasMore).toBe(true);
    const en = await a.reviews!({ listingId: '910000001', offset: 0, count: 10, language: 'en', minRating: null, q: null, summary: false, sort: 'recent' }, signal);
    expect(en!.reviews.map((r) => r.reviewId)).toEqual(['5000001', '5000003']);
    expect(en!.warnings.map((w) => w.code)).toEqual(['filter_applied_after_retrieval']);
    const low = await a.reviews!({ listingId: '910000001', offset: 0, count: 10, language: null, minRating: null, q: null, summary: false, sort: 'rating_asc' }, signal);
    expect(low!.reviews.map((r) => r.rating)).toEqual([3, 4, 5, 5]);
    expect(await a.reviews!({ listingId: '910000099', offset: 0, count: 10, language: null, minRating: null, q: null, summary: false, sort: 'recent' }, signal)).toBeNull();
  });
});
