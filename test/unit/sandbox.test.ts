import { describe, expect, it } from 'vitest';
import { createSandboxAdapters } from '../../src/adapters/platforms/sandbox/adapter.js';
import type { Property } from '../../src/domain/model/property.js';
import { LegFailure, type AdapterSet, type PlatformAdapter, type SearchQuery, type Stay } from '../../src/domain/ports/platform.js';
import type { Platform } from '../../src/domain/platforms.js';

const signal = new AbortController().signal;
const ALL: Platform[] = ['airbnb', 'booking', 'vrbo', 'google'];
const STAY: Stay = { checkIn: '2027-05-07', checkOut: '2027-05-11', occupancy: { adults: 2, children: 0, childAges: [] } };

function query(over: Partial<SearchQuery> = {}): SearchQuery {
  return {
    location: 'Lisbon', area: { centre: null, radiusKm: null, box: null }, checkIn: null, checkOut: null, occupancy: { adults: 2, children: 0, childAges: [] }, rooms: 1,
    propertyTypes: [], amenities: [], minBedrooms: null, priceMin: null, priceMax: null, minGuestRating: null, refundable: null, board: null,
    platforms: ALL, sort: 'recommended', currency: 'USD', ...over,
  };
}
const adapter = (set: AdapterSet, p: Platform): PlatformAdapter => set.get(p)!;
const search = (set: AdapterSet, p: Platform, q: Partial<SearchQuery> = {}, offset = 0, count = 1000) =>
  adapter(set, p).search!({ query: query(q), offset, count }, signal);
const withDates = { checkIn: STAY.checkIn, checkOut: STAY.checkOut };

describe('sandbox adapters: shape and determinism', () => {
  it('declares the capability matrix', () => {
    const set = createSandboxAdapters();
    expect(set.supporting('search')).toEqual(ALL);
    expect(set.supporting('availability')).toEqual(['airbnb', 'booking', 'vrbo']);
    expect(set.supporting('priceCompare')).toEqual(['google']);
    expect(set.get('expedia')).toBeUndefined();
  });

  it('answers the same request with the same bytes, across instances', async () => {
    const [a, b] = [createSandboxAdapters(), createSandboxAdapters()];
    for (const p of ALL) {
      const q = { ...withDates, sort: 'price_asc' as const, currency: 'EUR' };
      const [ra, rb] = [await search(a, p, q, 5, 10), await search(b, p, q, 5, 10)];
      expect(ra.items).toHaveLength(10);
      expect(JSON.stringify(ra)).toBe(JSON.stringify(rb));
    }
    const r1 = await adapter(a, 'booking').reviews!({ listingId: '2000123', offset: 0, count: 50, language: null, minRating: null, q: null, summary: false, sort: 'recent' }, signal);
    const r2 = await adapter(b, 'booking').reviews!({ listingId: '2000123', offset: 0, count: 50, language: null, minRating: null, q: null, summary: false, sort: 'recent' }, signal);
    expect(r1).toEqual(r2);
  });

  it('resolves places by name, "name, country" and coordinates within 50 km; unknown places are empty', async () => {
    const set = createSandboxAdapters();
    const byName = await search(set, 'airbnb');
    expect(byName.items.length).toBeGreaterThan(0);
    expect(byName.items.every((p) => p.location.city === 'Lisbon')).toBe(true);
    expect((await search(set, 'airbnb', { location: ' lisbon, Portugal ' })).items).toEqual(byName.items);
    expect((await search(set, 'airbnb', { location: '38.75,-9.10' })).items).toEqual(byName.items);
    expect(await search(set, 'airbnb', { location: 'Atlantis' })).toEqual({ items: [], hasMore: false, warnings: [] });
    expect((await search(set, 'airbnb', { location: '0,0' })).items).toEqual([]);
  });
});

describe('sandbox search', () => {
  it('a listing found by search is the listing fetched by id, with and without a stay', async () => {
    const set = createSandboxAdapters();
    const fresh = createSandboxAdapters();
    for (const p of ALL) {
      const found = (await search(set, p, { location: 'Tokyo' })).items.slice(0, 15);
      for (const item of found) {
        const got = await adapter(fresh, p).listing!({ listingId: item.platformListingId, currency: 'USD', stay: null }, signal);
        // Only search items have a distance, only listings name places nearby and give the reviews' verdict (issue 25).
        const { distanceKm: _d, ...listed } = item;
        const { nearby: _n, reviewSummary: _r, ...detail } = got!.value;
        expect(detail).toEqual(listed);
      }
      const priced = (await search(set, p, { location: 'Tokyo', ...withDates })).items.slice(0, 5);
      for (const item of priced) {
        const got = await adapter(fresh, p).listing!({ listingId: item.platformListingId, currency: 'USD', stay: STAY }, signal);
        const { distanceKm: _d, ...listed } = item;
        const { nearby: _n, reviewSummary: _r, ...detail } = got!.value;
        expect(detail).toEqual(listed);
        expect(got?.value.price).not.toBeNull();
      }
    }
  });

  it('pages are slices of the full ordered list', async () => {
    const set = createSandboxAdapters();
    const all = (await search(set, 'vrbo')).items;
    const pages: Property[] = [];
    let offset = 0;
    for (;;) {
      const page = await search(set, 'vrbo', {}, offset, 7);
      pages.push(...page.items);
      offset += page.items.length;
      if (!page.hasMore) break;
    }
    expect(pages).toEqual(all);
    expect(new Set(pages.map((p) => p.id)).size).toBe(all.length);
  });

  const filterCases: [string, Platform, Partial<SearchQuery>, (p: Property) => boolean][] = [
    ['propertyTypes', 'airbnb', { propertyTypes: ['house', 'villa'] }, (p) => ['house', 'villa'].includes(p.propertyType)],
    ['minBedrooms', 'vrbo', { minBedrooms: 4 }, (p) => (p.bedrooms ?? -1) >= 4],
    ['amenities', 'booking', { amenities: ['pool', 'wifi'] }, (p) => !!p.amenities?.includes('pool')],
    ['minGuestRating (10 scale)', 'booking', { minGuestRating: 9 }, (p) => (p.guestRating ?? -1) >= 9],
    ['minGuestRating (5 scale)', 'airbnb', { minGuestRating: 4.8 }, (p) => (p.guestRating ?? -1) >= 4.8],
    ['occupancy', 'airbnb', { occupancy: { adults: 5, children: 1, childAges: [4] } }, (p) => (p.maxOccupancy ?? 0) >= 6],
    ['rooms for hotels', 'google', { occupancy: { adults: 5, children: 0, childAges: [] }, rooms: 2 }, (p) => (p.maxOccupancy ?? 0) * 2 >= 5],
    ['priceMin/priceMax (nightly)', 'booking', { ...withDates, priceMin: 120, priceMax: 200 }, (p) => p.price!.nightlyPrice >= 120 && p.price!.nightlyPrice <= 200],
  ];
  it.each(filterCases)('honours %s: exactly the matching items, in the unfiltered order', async (_n, p, filter, pred) => {
    const set = createSandboxAdapters();
    const base = { ...(filter.checkIn ? withDates : {}) };
    const all = (await search(set, p, base)).items;
    const filtered = await search(set, p, filter);
    expect(filtered.items.length).toBeGreaterThan(0);
    expect(filtered.items.length).toBeLessThan(all.length);
    expect(filtered.items.map((x) => x.id)).toEqual(all.filter(pred).map((x) => x.id));
  });

  it('warns that airbnb amenity filters run after retrieval, and only then', async () => {
    const set = createSandboxAdapters();
    expect((await search(set, 'airbnb', { amenities: ['wifi'] })).warnings.map((w) => [w.code, w.platform])).toEqual([['filter_applied_after_retrieval', 'airbnb']]);
    expect((await search(set, 'booking', { amenities: ['wifi'] })).warnings.filter((w) => w.code === 'filter_applied_after_retrieval')).toEqual([]);
    expect((await search(set, 'airbnb')).warnings).toEqual([]);
  });

  it('sorts by total price and by rating share', async () => {
    const set = createSandboxAdapters();
    const asc = (await search(set, 'airbnb', { ...withDates, sort: 'price_asc' })).items.map((p) => p.price!.totalPrice);
    expect(asc).toEqual([...asc].sort((a, b) => a - b));
    const desc = (await search(set, 'vrbo', { ...withDates, sort: 'price_desc' })).items.map((p) => p.price!.totalPrice);
    expect(desc).toEqual([...desc].sort((a, b) => b - a));
    const rated = (await search(set, 'booking', { sort: 'rating_desc' })).items.map((p) => (p.guestRating === null ? -1 : p.guestRating / p.ratingScale));
    expect(rated).toEqual([...rated].sort((a, b) => b - a));
  });
});

describe('sandbox prices', () => {
  const cents = (n: number) => Math.abs(n * 100 - Math.round(n * 100)) < 1e-6;

  it('shows every price basis, each with its warning, and price-compare offers of several bases', async () => {
    const set = createSandboxAdapters();
    const seen = new Map<string, Set<string>>();
    for (const p of ALL) {
      const leg = await search(set, p, withDates, 0, 50);
      const bases = new Set(leg.items.map((i) => i.price!.basis));
      seen.set(p, bases);
      const codes = leg.warnings.map((w) => w.code);
      expect(codes.includes('taxes_not_included')).toBe(bases.has('before_taxes'));
      expect(codes.includes('price_basis_unclear')).toBe(bases.has('unknown'));
      if (p === 'booking') expect(codes).toContain('rating_not_stars');
    }
    expect(new Set([...seen.values()].flatMap((b) => [...b]))).toEqual(new Set(['all_in', 'before_taxes', 'unknown']));
    const offers = new Set<string>();
    for (let i = 0; i < 10; i++) {
      const stay = { checkIn: '2031-06-10', checkOut: '2031-06-14', occupancy: { adults: 2, children: 0, childAges: [] } };
      const res = await set.get('google')!.priceCompare!({ ...stay, name: null, googleHotelId: `ChkIsandbox${i}`, location: null, currency: 'USD' }, new AbortController().signal);
      for (const o of res!.value.offers) offers.add(o.basis);
    }
    expect(offers).toEqual(new Set(['all_in', 'before_taxes', 'unknown']));
  });

  it('total is the subtotal plus the stated fees, each part at the minor unit', async () => {
    const set = createSandboxAdapters();
    for (const p of ALL) {
      for (const item of (await search(set, p, withDates)).items.slice(0, 20)) {
        const price = item.price!;
        const { cleaning, service, taxes } = price.fees;
        // Every fee line is in the total (issue 25): resort fees and vrbo's damage protection too.
        const subtotal = price.totalPrice - price.fees.items.reduce((sum, i) => sum + i.amount, 0);
        expect(price.nights).toBe(4);
        for (const part of [price.totalPrice, price.nightlyPrice, cleaning ?? 0, service ?? 0, taxes ?? 0]) expect(cents(part)).toBe(true);
        expect(Math.abs(subtotal - price.nightlyPrice * 4)).toBeLessThanOrEqual(4 * 0.005 + 1e-9);
        const rate = { airbnb: 0.08, vrbo: 0.07, booking: 0.1, google: 0.12 }[p as 'airbnb'];
        // Taxes are stated, and in the total, only on an all-in price.
        if (price.basis === 'all_in') expect(Math.abs(taxes! - subtotal * rate)).toBeLessThanOrEqual(0.011);
        else expect(taxes).toBeNull();
        if (p === 'booking' || p === 'google') expect([cleaning, service]).toEqual([null, null]);
        if (p === 'airbnb' || p === 'vrbo') expect(service).not.toBeNull();
        if (item.propertyType === 'hotel') expect(cleaning).toBeNull();
      }
    }
  });

  it('price() agrees with the embedded price and echoes the stay', async () => {
    const set = createSandboxAdapters();
    const [item] = (await search(set, 'airbnb', withDates)).items;
    const quote = await adapter(set, 'airbnb').price!({ ...STAY, listingId: item!.platformListingId, currency: 'USD' }, signal);
    expect(quote!.value).toMatchObject({ platform: 'airbnb', listingId: item!.platformListingId, checkIn: STAY.checkIn, checkOut: STAY.checkOut, occupancy: STAY.occupancy, nights: 4, url: item!.url });
    expect(quote!.value.totalPrice).toBe(item!.price!.totalPrice);
    expect(quote!.value.fees).toEqual(item!.price!.fees);
    const more = await adapter(set, 'airbnb').price!({ ...STAY, occupancy: { adults: 4, children: 0, childAges: [] }, listingId: item!.platformListingId, currency: 'USD' }, signal);
    expect(more!.value.totalPrice).toBeGreaterThan(quote!.value.totalPrice);
  });

  it('JPY prices are whole yen', async () => {
    const set = createSandboxAdapters();
    for (const p of ALL) {
      for (const item of (await search(set, p, { ...withDates, currency: 'JPY' })).items) {
        const { totalPrice, nightlyPrice, fees, currency } = item.price!;
        expect(currency).toBe('JPY');
        for (const n of [totalPrice, nightlyPrice, fees.cleaning ?? 0, fees.service ?? 0, fees.taxes ?? 0]) expect(Number.isInteger(n)).toBe(true);
      }
    }
  });

  it('price-compare offers are deterministic and within a few percent of the hotel price', async () => {
    const set = createSandboxAdapters();
    const g = adapter(set, 'google');
    const [hotel] = (await search(set, 'google', withDates)).items;
    const req = { ...STAY, name: null, googleHotelId: hotel!.platformListingId, location: null, currency: 'USD' };
    const res = await g.priceCompare!(req, signal);
    expect(await g.priceCompare!(req, signal)).toEqual(res);
    expect(res!.value.offers.length).toBeGreaterThanOrEqual(3);
    const base = hotel!.price!.totalPrice;
    for (const o of res!.value.offers) {
      expect(o.currency).toBe('USD');
      expect(o.totalPrice).toBeGreaterThanOrEqual(base * 0.9 - 0.01);
      expect(o.totalPrice).toBeLessThanOrEqual(base * 1.12 + 0.01);
    }
  });
});

describe('sandbox triggers', () => {
  it('sandbox-missing is null everywhere; sandbox:unavailable throws a failed LegFailure', async () => {
    const set = createSandboxAdapters();
    for (const p of ALL) {
      const a = adapter(set, p);
      for (const id of ['sandbox-missing', 'sandbox:unavailable']) {
        const calls = [
          a.listing!({ listingId: id, currency: 'USD', stay: null }, signal),
          a.price!({ ...STAY, listingId: id, currency: 'USD' }, signal),
          a.reviews!({ listingId: id, offset: 0, count: 20, language: null, minRating: null, q: null, summary: false, sort: 'recent' }, signal),
          ...(a.operations.has('availability') ? [a.availability!({ listingId: id, startDate: '2027-05-01', endDate: '2027-05-10', currency: 'USD' }, signal)] : []),
        ];
        for (const call of calls) {
          if (id === 'sandbox-missing') expect(await call).toBeNull();
          else await expect(call).rejects.toSatisfy((e: unknown) => e instanceof LegFailure && e.status === 'failed');
        }
      }
      await expect(search(set, p, { location: 'sandbox:unavailable' })).rejects.toBeInstanceOf(LegFailure);
    }
    const g = adapter(set, 'google');
    const pc = { ...STAY, googleHotelId: null, location: null, currency: 'USD' };
    expect(await g.priceCompare!({ ...pc, name: 'sandbox-missing' }, signal)).toBeNull();
    await expect(g.priceCompare!({ ...pc, name: 'sandbox:unavailable' }, signal)).rejects.toBeInstanceOf(LegFailure);
    const partial = await g.priceCompare!({ ...pc, name: 'sandbox:partial' }, signal);
    expect(partial!.warnings.map((w) => w.code)).toEqual(['offers_incomplete']);
  });

  it('sandbox:partial fails only the last platform asked for', async () => {
    const set = createSandboxAdapters();
    const platforms: Platform[] = ['vrbo', 'google', 'airbnb'];
    await expect(search(set, 'airbnb', { location: 'sandbox:partial', platforms })).rejects.toBeInstanceOf(LegFailure);
    const vrbo = await search(set, 'vrbo', { location: 'sandbox:partial', platforms });
    expect(vrbo.items.length).toBeGreaterThan(0);
    expect(vrbo.items).toEqual((await search(set, 'vrbo', { location: 'Lisbon' })).items);
  });
});
