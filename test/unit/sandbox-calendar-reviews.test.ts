import { describe, expect, it } from 'vitest';
import { createSandboxAdapters } from '../../src/adapters/platforms/sandbox/adapter.js';
import { daysBetween, toDayNumber } from '../../src/domain/dates.js';
import type { AdapterSet, PlatformAdapter, SearchQuery } from '../../src/domain/ports/platform.js';
import type { Platform } from '../../src/domain/platforms.js';

/** Sandbox calendars (calendar.ts) and reviews (reviews.ts) through the adapter port. */
const signal = new AbortController().signal;
const ALL: Platform[] = ['airbnb', 'booking', 'vrbo', 'google'];
const adapter = (set: AdapterSet, p: Platform): PlatformAdapter => set.get(p)!;

function query(over: Partial<SearchQuery> = {}): SearchQuery {
  return {
    location: 'Lisbon', area: { centre: null, radiusKm: null, box: null }, checkIn: null, checkOut: null, occupancy: { adults: 2, children: 0, childAges: [] }, rooms: 1,
    propertyTypes: [], amenities: [], minBedrooms: null, priceMin: null, priceMax: null, minGuestRating: null, refundable: null, board: null,
    platforms: ALL, sort: 'recommended', currency: 'USD', ...over,
  };
}
const search = (set: AdapterSet, p: Platform, q: Partial<SearchQuery> = {}) => adapter(set, p).search!({ query: query(q), offset: 0, count: 1000 }, signal);

describe('sandbox calendars', () => {
  it('overlapping windows agree on shared dates; windows are inclusive and contiguous', async () => {
    const set = createSandboxAdapters();
    for (const p of ['airbnb', 'booking', 'vrbo'] as const) {
      const a = (await adapter(set, p).availability!({ listingId: '6000042', startDate: '2027-03-01', endDate: '2027-04-30', currency: 'USD' }, signal))!.value;
      const b = (await adapter(set, p).availability!({ listingId: '6000042', startDate: '2027-04-10', endDate: '2027-06-30', currency: 'USD' }, signal))!.value;
      expect(a).toHaveLength(daysBetween('2027-03-01', '2027-04-30') + 1);
      expect(a.map((d) => toDayNumber(d.date)! - toDayNumber('2027-03-01')!)).toEqual(a.map((_, i) => i));
      const shared = a.filter((d) => d.date >= '2027-04-10');
      expect(shared).toHaveLength(21);
      expect(b.slice(0, 21)).toEqual(shared);
      expect(a.some((d) => d.available) && a.some((d) => !d.available)).toBe(true);
      for (const d of [...a, ...b]) {
        const weekday = (toDayNumber(d.date)! + 4) % 7;
        if (weekday === 5 || weekday === 6) expect(d.minNights).toBeGreaterThanOrEqual(2);
        if (d.bookable) expect(d.available).toBe(true);
      }
      // checkIn is availability; bookable means minNights free nights start here; a free night allows check-out next day.
      a.forEach((d, i) => {
        expect(d.checkIn).toBe(d.available);
        if (i > 0 && a[i - 1]!.available) expect(d.checkOut).toBe(true);
        if (i + d.minNights! <= a.length) expect(d.bookable).toBe(a.slice(i, i + d.minNights!).every((x) => x.available));
      });
      expect(a.some((d) => d.available && !d.bookable)).toBe(true);
    }
  });
});

describe('sandbox reviews', () => {
  const reviews = async (set: AdapterSet, p: Platform, listingId: string, over: Record<string, unknown> = {}) =>
    (await adapter(set, p).reviews!({ listingId, offset: 0, count: 1000, language: null, minRating: null, q: null, summary: false, sort: 'recent', ...over }, signal))!;

  it('carries locales beside languages and some rating-only reviews with text null', async () => {
    const set = createSandboxAdapters();
    const item = (await search(set, 'booking')).items.find((x) => (x.reviewCount ?? 0) >= 200)!;
    const all = (await reviews(set, 'booking', item.platformListingId)).reviews;
    for (const r of all) expect(r.locale === r.language || r.locale!.startsWith(`${r.language}-`)).toBe(true);
    expect(all.some((r) => r.locale !== null && r.locale.includes('-'))).toBe(true);
    const bare = all.filter((r) => r.text === null);
    expect(bare.length).toBeGreaterThan(0);
    expect(bare.every((r) => r.liked === null && r.disliked === null && r.rating !== null)).toBe(true);
  });

  it('pages without duplicates or gaps and honours language, minRating and sort', async () => {
    const set = createSandboxAdapters();
    for (const p of ALL) {
      const item = (await search(set, p)).items.find((x) => (x.reviewCount ?? 0) >= 200)!;
      const all = (await reviews(set, p, item.platformListingId)).reviews;
      expect(all).toHaveLength(150);
      const paged = [];
      for (let offset = 0; ; offset += 20) {
        const page = await reviews(set, p, item.platformListingId, { offset, count: 20 });
        paged.push(...page.reviews);
        if (!page.hasMore) break;
      }
      expect(new Set(paged.map((r) => r.reviewId)).size).toBe(150);
      expect(paged).toEqual(all);
      expect(all.map((r) => r.date)).toEqual([...all.map((r) => r.date)].sort().reverse());
      expect(all.every((r) => r.ratingScale === (p === 'booking' ? 10 : 5))).toBe(true);
      expect(all.every((r) => (r.title === null) === (p === 'airbnb' || p === 'google'))).toBe(true);

      const fr = (await reviews(set, p, item.platformListingId, { language: 'fr' })).reviews;
      expect(fr.length).toBeGreaterThan(0);
      expect(fr).toEqual(all.filter((r) => r.language === 'fr'));
      const min = p === 'booking' ? 8 : 4;
      expect((await reviews(set, p, item.platformListingId, { minRating: min })).reviews).toEqual(all.filter((r) => r.rating! >= min));
      const desc = (await reviews(set, p, item.platformListingId, { sort: 'rating_desc' })).reviews;
      expect(desc.map((r) => r.rating)).toEqual(all.map((r) => r.rating!).sort((x, y) => y - x));
      const asc = (await reviews(set, p, item.platformListingId, { sort: 'rating_asc' })).reviews;
      expect(asc.map((r) => r.rating)).toEqual(all.map((r) => r.rating!).sort((x, y) => x - y));
    }
  });

  it('a listing with fewer reviews has exactly its reviewCount', async () => {
    const set = createSandboxAdapters();
    const item = (await search(set, 'vrbo', { location: 'Rome' })).items.find((x) => (x.reviewCount ?? 0) > 0 && x.reviewCount! < 150)!;
    expect((await reviews(set, 'vrbo', item.platformListingId)).reviews).toHaveLength(item.reviewCount!);
  });
});
