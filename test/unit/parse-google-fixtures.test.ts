import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createGoogleAdapter } from '../../src/adapters/platforms/google/index.js';
import { parseProperty } from '../../src/adapters/platforms/google/parse.js';
import { parseSearchPage } from '../../src/adapters/platforms/google/parse-search.js';
import { amountOf } from '../../src/adapters/platforms/google/rates.js';
import { UpstreamNotFound, type UpstreamClient, type UpstreamRequest } from '../../src/adapters/platforms/http/upstream.js';
import { FieldWarnings } from '../../src/adapters/platforms/parse-support.js';
import { listingIdFromUrl } from '../../src/domain/listing-ids/listing-url.js';
import { LegFailure, type PlatformAdapter, type SearchQuery } from '../../src/domain/ports/platform.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const FIXTURES = path.join(ROOT, 'fixtures/replay/google');
const HOTEL = 'ChkIfx1AzulejoTeste0001EAE';
const RENTAL = 'ChoQfx2CasaMiradouro0002EAI';
const MISSING = 'ChkIfx9MissingHotel0009EAE';
const STAY = { checkIn: '2031-06-10', checkOut: '2031-06-13', occupancy: { adults: 2, children: 0, childAges: [] } };
const signal = new AbortController().signal;
const codes = (warnings: { code: string }[]) => warnings.map((w) => w.code);

/** Resolves a request the way the replay server does: <path>/<engine>/<key>.json, else <path>/<engine>.json. */
function fixtureClient(): UpstreamClient & { requests: UpstreamRequest[] } {
  const requests: UpstreamRequest[] = [];
  return {
    requests,
    async json(req) {
      requests.push(req);
      const base = path.join(FIXTURES, ...req.path.split('/').filter(Boolean), String(req.query?.engine));
      const key = req.query?.property_token;
      const file = [...(key ? [path.join(base, `${String(key)}.json`)] : []), `${base}.json`].find((f) => existsSync(f));
      if (!file) throw new UpstreamNotFound();
      return JSON.parse(readFileSync(file, 'utf8'));
    },
    close: async () => {},
  };
}

function query(over: Partial<SearchQuery> = {}): SearchQuery {
  return {
    location: 'Lisbon', area: { centre: null, radiusKm: null, box: null }, checkIn: STAY.checkIn, checkOut: STAY.checkOut, occupancy: STAY.occupancy, rooms: 1, propertyTypes: [], amenities: [],
    minBedrooms: null, priceMin: null, priceMax: null, minGuestRating: null, refundable: null, board: null, platforms: ['google'], sort: 'recommended', currency: 'USD', ...over,
  };
}

const setup = () => {
  const client = fixtureClient();
  const adapter: PlatformAdapter = createGoogleAdapter(client, { apiKey: 'test-key', now: () => new Date('2031-06-01T12:00:00Z') });
  return { client, adapter };
};

describe('google rules', () => {
  it('a property missing fields gives null + a warning per field, never 0 or []', () => {
    const w = new FieldWarnings('google');
    const p = parseProperty({ property_token: 'ChkIminimal000EAE', name: 'Bare Hotel', type: 'hotel' }, { currency: 'USD', nights: 2 }, w)!;
    expect([p.guestRating, p.reviewCount, p.starRating, p.amenities, p.images, p.location.lat, p.price]).toEqual([null, null, null, null, null, null, null]);
    const fields = w.list.map((x) => x.message.split(':')[0]);
    expect(fields).toEqual(expect.arrayContaining(['guestRating', 'reviewCount', 'starRating', 'amenities', 'images', 'location.lat', 'price']));
    expect(codes(w.list).every((c) => c === 'field_unavailable')).toBe(true);
  });

  it('an unknown type is "other" with a warning; an item without a token or name is left out', () => {
    const w = new FieldWarnings('google');
    expect(parseProperty({ property_token: 'ChkIcastle0000EAE', name: 'A Castle', type: 'castle' }, null, w)?.propertyType).toBe('other');
    expect(parseProperty({ name: 'No Token' }, null, w)).toBeNull();
    expect(codes(w.list)).toEqual(expect.arrayContaining(['field_unavailable', 'item_skipped']));
  });

  it('amounts parse exactly whatever the digit grouping, rounded to the minor unit', () => {
    expect(amountOf({ lowest: 'Rp\u00a01.177.803' }, 'lowest', 'IDR')).toBe(1177803);
    expect(amountOf({ lowest: 'IDR\u00a0412,764' }, 'lowest', 'IDR')).toBe(412764);
    expect(amountOf({ lowest: '€1.234,56' }, 'lowest', 'EUR')).toBe(1234.56);
    expect(amountOf({ lowest: '1 234,56 €' }, 'lowest', 'EUR')).toBe(1234.56);
    expect(amountOf({ lowest: '$1,023.45' }, 'lowest', 'USD')).toBe(1023.45);
    expect(amountOf({ lowest: '¥12,345' }, 'lowest', 'JPY')).toBe(12345);
    expect(amountOf({ extracted_lowest: 100.005, lowest: 'ignored' }, 'lowest', 'USD')).toBe(100.01);
    expect(amountOf({}, 'lowest', 'USD')).toBeNull();
    expect(() => amountOf({ lowest: 'EUR 120' }, 'lowest', 'USD')).toThrow('google answered in EUR, not USD');
  });

  it('a SerpApi error fails the leg; "no results" is an empty answer', () => {
    expect(() => parseSearchPage({ error: 'Invalid API key.' }, { currency: 'USD', stay: null })).toThrow(LegFailure);
    expect(parseSearchPage({ error: "Google Hotels hasn't returned any results for this query." }, { currency: 'USD', stay: null }).items).toEqual([]);
  });

  it('a search answered with one hotel\'s details is a page of that one hotel', () => {
    const details = JSON.parse(readFileSync(path.join(FIXTURES, 'search.json/google_hotels', `${HOTEL}.json`), 'utf8'));
    const page = parseSearchPage(details, { currency: 'USD', stay: STAY });
    expect(page.items.map((p) => [p.platformListingId, p.price?.totalPrice])).toEqual([[HOTEL, 600]]);
  });
});

describe('google adapter on the project fixtures', () => {
  it('declares search, listing, price, priceCompare and reviews (Maps); needs an API key', () => {
    expect([...setup().adapter.operations].sort()).toEqual(['listing', 'price', 'priceCompare', 'reviews', 'search']);
    expect(() => createGoogleAdapter(fixtureClient(), { apiKey: ' ' })).toThrow(/apiKey/);
  });

  it('search: one relative SerpApi request carrying the key, dates, occupancy and currency', async () => {
    const { client, adapter } = setup();
    await adapter.search!({ query: query({ occupancy: { adults: 2, children: 1, childAges: [7] } }), offset: 0, count: 20 }, signal);
    expect(client.requests).toEqual([{
      method: 'GET', path: '/search.json',
      query: { engine: 'google_hotels', q: 'Lisbon', check_in_date: '2031-06-10', check_out_date: '2031-06-13', adults: 2, children: 1, children_ages: '7', currency: 'USD', hl: 'en', api_key: 'test-key' },
    }]);
  });

  it('search: properties in Google order, ads left out, prices for the stay', async () => {
    const res = await setup().adapter.search!({ query: query(), offset: 0, count: 20 }, signal);
    expect(res.items.map((p) => p.name)).toEqual(['Hotel Azulejo Teste', 'Casa do Miradouro Exemplo', 'Pensão Fictícia do Rio']);
    expect(res.hasMore).toBe(false);
    const [hotel, casa, pensao] = res.items;
    expect(hotel).toMatchObject({ starRating: 4, guestRating: 4.5, reviewCount: 1234, amenities: ['wifi', 'pool', 'air_conditioning', 'restaurant'] });
    expect(hotel!.price).toMatchObject({ totalPrice: 612, nightlyPrice: 180, nights: 3 });
    expect(hotel!.images).toEqual(['https://images.example/azulejo/1.jpg', 'https://images.example/azulejo/2-thumb.jpg']);
    expect(casa).toMatchObject({ propertyType: 'house', maxOccupancy: 6, bedrooms: 3, bathrooms: 2, guestRating: null, amenities: ['kitchen', 'washer', 'free_parking', 'hot_tub'] });
    // Printed "$1,023.45" with no before-taxes figure: exact, and flagged.
    expect(casa!.price).toMatchObject({ totalPrice: 1023.45, nightlyPrice: 341.15 });
    expect(codes(res.warnings)).toContain('price_basis_unclear');
    expect(pensao!.images).toBeNull();
  });

  it('search: item URLs are Google Travel entity pages the service\'s URL parser maps back to the id; rooms>1 is reported', async () => {
    const res = await setup().adapter.search!({ query: query({ rooms: 2 }), offset: 0, count: 1 }, signal);
    expect(res.items[0]!.url).toBe(`https://www.google.com/travel/hotels/entity/${HOTEL}`);
    expect(listingIdFromUrl('google', res.items[0]!.url)).toBe(HOTEL);
    expect(codes(res.warnings)).toContain('rooms_not_applied');
    expect(res.hasMore).toBe(true);
  });

  it('search: undated sends placeholder dates SerpApi requires, and returns no prices', async () => {
    const { client, adapter } = setup();
    const res = await adapter.search!({ query: query({ checkIn: null, checkOut: null }), offset: 0, count: 20 }, signal);
    expect(client.requests[0]!.query).toMatchObject({ check_in_date: '2031-06-02', check_out_date: '2031-06-03' });
    expect(res.items).toHaveLength(3);
    expect(res.items.every((p) => p.price === null)).toBe(true);
  });

  it('search: another currency than the answer is a failed leg', async () => {
    await expect(setup().adapter.search!({ query: query({ currency: 'EUR' }), offset: 0, count: 20 }, signal)).rejects.toThrow('google answered in USD, not EUR');
  });

  it('search: filters applied after retrieval, and said so', async () => {
    const { adapter } = setup();
    const houses = await adapter.search!({ query: query({ propertyTypes: ['house'] }), offset: 0, count: 20 }, signal);
    expect(houses.items.map((p) => p.platformListingId)).toEqual([RENTAL]);
    expect(codes(houses.warnings)).toContain('filter_applied_after_retrieval');
    const pets = await adapter.search!({ query: query({ amenities: ['pets_allowed'], minGuestRating: 3.5 }), offset: 0, count: 20 }, signal);
    expect(pets.items.map((p) => p.name)).toEqual(['Pensão Fictícia do Rio']);
    const cheap = await adapter.search!({ query: query({ priceMax: 150 }), offset: 0, count: 20 }, signal);
    expect(cheap.items.map((p) => p.price?.nightlyPrice)).toEqual([100]);
  });

  it('search: price_asc asks Google for its price order and hands the merge an exactly ordered leg', async () => {
    const { client, adapter } = setup();
    const res = await adapter.search!({ query: query({ sort: 'price_asc' }), offset: 0, count: 2 }, signal);
    expect(client.requests[0]!.query?.sort_by).toBe(3);
    expect(res.items.map((p) => p.price?.totalPrice)).toEqual([330, 612]);
    expect(res.hasMore).toBe(true);
    const desc = await adapter.search!({ query: query({ sort: 'price_desc' }), offset: 0, count: 3 }, signal);
    expect(desc.items.map((p) => p.price?.totalPrice)).toEqual([1023.45, 612, 330]);
    expect(client.requests[1]!.query?.sort_by).toBeUndefined();
  });

  it('listing: details of a hotel and of a rental; unknown and malformed ids are not found', async () => {
    const { client, adapter } = setup();
    const hotel = (await adapter.listing!({ listingId: HOTEL, currency: 'USD', stay: null }, signal))!;
    expect(client.requests[0]!.query).toMatchObject({ engine: 'google_hotels', property_token: HOTEL, check_in_date: '2031-06-02' });
    expect(hotel.value).toMatchObject({
      name: 'Hotel Azulejo Teste', location: { country: 'PT', lat: 38.7139 }, reviewCount: 1240, price: null,
      amenities: ['wifi', 'pool', 'air_conditioning', 'gym', 'bar', 'restaurant', 'wheelchair_accessible'],
    });
    const rental = (await adapter.listing!({ listingId: RENTAL, currency: 'USD', stay: null }, signal))!;
    expect(rental.value).toMatchObject({ propertyType: 'house', maxOccupancy: 6, bedrooms: 3, images: ['https://images.example/casa/1.jpg', 'https://images.example/casa/2.jpg'] });
    expect(await adapter.listing!({ listingId: MISSING, currency: 'USD', stay: null }, signal)).toBeNull();
    const before = client.requests.length;
    expect(await adapter.listing!({ listingId: '../etc/passwd', currency: 'USD', stay: null }, signal)).toBeNull();
    expect(client.requests).toHaveLength(before);
  });

  it('price: the lowest OTA total for the stay, excluding rates for fewer guests and incomplete rates', async () => {
    const price = (await setup().adapter.price!({ listingId: HOTEL, currency: 'USD', ...STAY }, signal))!;
    expect(price.value).toMatchObject({ source: 'Expedia.com', totalPrice: 598, nightlyPrice: 176, nights: 3, url: 'https://www.google.com/travel/clk?pc=fixture-expedia', occupancy: STAY.occupancy });
    expect(price.value.basis).toBe('all_in');
    expect(codes(price.warnings).sort()).toEqual(['fee_payment_unknown', 'field_unavailable', 'offers_dropped_occupancy', 'offers_unavailable', 'price_context_unavailable', 'price_fees_combined']);
    await expect(setup().adapter.price!({ listingId: RENTAL, currency: 'USD', ...STAY }, signal)).rejects.toThrow(/listed no rate/);
    await expect(setup().adapter.price!({ listingId: HOTEL, currency: 'USD', ...STAY, checkOut: '2031-06-14' }, signal)).rejects.toThrow(LegFailure);
  });

  it('priceCompare by googleHotelId: one offer per OTA of prices[], featured ads and duplicates left out', async () => {
    const set = (await setup().adapter.priceCompare!({ ...STAY, googleHotelId: HOTEL, name: null, location: null, currency: 'USD' }, signal))!;
    expect(set.value.property).toBe('Hotel Azulejo Teste');
    expect(set.value.offers.map((o) => [o.ota, o.totalPrice])).toEqual([['Hotel Azulejo Teste', 600], ['Booking.com', 612], ['Expedia.com', 598], ['Exemplo Travel', 605]]);
    expect(set.value.offers.some((o) => o.url.includes('aclk'))).toBe(false);
    expect(set.warnings.find((w) => w.code === 'price_basis_unclear')?.message).toContain('Exemplo Travel');
  });

  it('priceCompare by name(+location): a search, then the details of the one exact-name match', async () => {
    const { client, adapter } = setup();
    const set = (await adapter.priceCompare!({ ...STAY, googleHotelId: null, name: 'HOTEL AZULEJO TESTE', location: 'Lisbon', currency: 'USD' }, signal))!;
    expect(set.value.googleHotelId).toBe(HOTEL);
    expect(client.requests.map((r) => [r.query?.q, r.query?.property_token])).toEqual([['HOTEL AZULEJO TESTE Lisbon', undefined], [HOTEL, HOTEL]]);
    const accents = await adapter.priceCompare!({ ...STAY, googleHotelId: null, name: 'Pensao Ficticia do Rio', location: null, currency: 'USD' }, signal);
    expect(accents?.value.offers.map((o) => o.totalPrice)).toEqual([330, 345]);
  });

  it('priceCompare: no confident match is not found, never another hotel', async () => {
    const { adapter } = setup();
    const ask = (name: string) => adapter.priceCompare!({ ...STAY, googleHotelId: null, name, location: null, currency: 'USD' }, signal);
    expect(await ask('Hotel Azulejo')).toBeNull();
    expect(await ask('Hotel Patrocinado Exemplo')).toBeNull();
    expect(await adapter.priceCompare!({ ...STAY, googleHotelId: MISSING, name: null, location: null, currency: 'USD' }, signal)).toBeNull();
  });

  it('projects its duration from the SerpApi calls it will make', () => {
    const { adapter } = setup();
    expect(adapter.expectedMs!('search', { query: query(), offset: 0, count: 20 })).toBe(2500);
    expect(adapter.expectedMs!('search', { query: query(), offset: 40, count: 20 })).toBe(7500);
    expect(adapter.expectedMs!('priceCompare', { ...STAY, googleHotelId: null, name: 'x', location: null, currency: 'USD' })).toBe(5000);
  });
});

/** A SerpApi search of `pages` pages of 20 hotels; the page token names the next page's index. */
function pagedClient(pages: number, opts: { repeatFirst?: boolean } = {}): UpstreamClient & { tokens: (string | undefined)[] } {
  const tokens: (string | undefined)[] = [];
  return {
    tokens,
    async json(req) {
      const token = req.query?.next_page_token as string | undefined;
      tokens.push(token);
      const p = opts.repeatFirst || token === undefined ? 0 : Number(token.slice(1));
      const properties = Array.from({ length: 20 }, (_, i) => ({
        type: 'hotel', name: `Paged Hotel ${p * 20 + i}`, property_token: `ChkIpaged${String(p * 20 + i).padStart(4, '0')}EAE`,
        overall_rating: 3 + ((p * 20 + i) % 20) / 10, total_rate: { extracted_lowest: 100 + p * 20 + i, extracted_before_taxes_fees: 90 + p * 20 + i },
      }));
      const next = p + 1 < pages ? { next_page_token: `P${p + 1}` } : {};
      return { search_parameters: { currency: 'USD', check_in_date: STAY.checkIn, check_out_date: STAY.checkOut }, properties, serpapi_pagination: next };
    },
    close: async () => {},
  };
}

describe('google search pagination over SerpApi pages', () => {
  const run = (client: UpstreamClient, offset: number, count: number, over: Partial<SearchQuery> = {}) =>
    createGoogleAdapter(client, { apiKey: 'k' }).search!({ query: query(over), offset, count }, signal);
  const ids = (items: { platformListingId: string }[]) => items.map((p) => Number(p.platformListingId.slice(9, 13)));

  it('a first page of 20 is one call; SerpApi naming a next page makes hasMore true', async () => {
    const client = pagedClient(3);
    const res = await run(client, 0, 20);
    expect(ids(res.items)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(res.hasMore).toBe(true);
    expect(client.tokens).toEqual([undefined]);
  });

  it('an offset walks the pages through their tokens and slices across page bounds', async () => {
    const client = pagedClient(3);
    const res = await run(client, 30, 20);
    expect(ids(res.items)).toEqual(Array.from({ length: 20 }, (_, i) => 30 + i));
    expect(client.tokens).toEqual([undefined, 'P1', 'P2']);
    expect(res.hasMore).toBe(true);
  });

  it('the last page ends the results: hasMore false, a short slice past the end is empty', async () => {
    const last = await run(pagedClient(3), 40, 20);
    expect(ids(last.items)).toEqual(Array.from({ length: 20 }, (_, i) => 40 + i));
    expect(last.hasMore).toBe(false);
    expect(await run(pagedClient(3), 60, 20)).toMatchObject({ items: [], hasMore: false });
  });

  it('a page that brings nothing new ends the walk instead of looping', async () => {
    const client = pagedClient(5, { repeatFirst: true });
    const res = await run(client, 20, 20);
    expect(res).toMatchObject({ items: [], hasMore: false });
    expect(client.tokens).toEqual([undefined, 'P1']);
  });

  it('the walk is capped: beyond the cap nothing is promised and the truncation is reported', async () => {
    const client = pagedClient(20);
    const res = await run(client, 200, 20);
    expect(client.tokens).toHaveLength(8);
    expect(res.items).toEqual([]);
    expect(res.hasMore).toBe(false);
    expect(codes(res.warnings)).toContain('results_truncated');
  });

  it('a sort other than recommended orders a fixed window of the first pages, the same on every page', async () => {
    const first = await run(pagedClient(5), 0, 10, { sort: 'rating_desc' });
    const second = await run(pagedClient(5), 10, 10, { sort: 'rating_desc' });
    const ratings = [...first.items, ...second.items].map((p) => p.guestRating!);
    expect(ratings).toEqual([...ratings].sort((a, b) => b - a));
    expect(new Set([...ids(first.items), ...ids(second.items)]).size).toBe(20);
    expect(codes(first.warnings)).toContain('sort_applied_after_retrieval');
    expect(first.hasMore).toBe(true);
  });
});
