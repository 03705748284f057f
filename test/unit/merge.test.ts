import { describe, expect, it } from 'vitest';
import { compareForSort, mergePage, type LegSlice } from '../../src/domain/operations/merge.js';
import type { Property } from '../../src/domain/model/property.js';
import { RATING_SCALE, type Platform } from '../../src/domain/platforms.js';

function prop(platform: Platform, id: string, opts: { price?: number | null; rating?: number | null } = {}): Property {
  const price = opts.price ?? null;
  return {
    id: `stays_${platform}_${id}`,
    platform,
    platformListingId: id,
    url: `https://example.com/${platform}/${id}`,
    name: `${platform} ${id}`,
    propertyType: 'apartment',
    location: { lat: null, lng: null, city: null, region: null, country: null },
    starRating: null,
    guestRating: opts.rating ?? null,
    ratingScale: RATING_SCALE[platform],
    reviewCount: null,
    maxOccupancy: null,
    bedrooms: null,
    bathrooms: null,
    amenities: null,
    images: null,
    host: null,
    price: price === null ? null : { currency: 'USD', basis: 'all_in', nightlyPrice: price, totalPrice: price, nights: 1, fees: { cleaning: null, service: null, taxes: null, items: [] } },
  };
}

/** n items a1..an for a leg, starting after `position` items already given. */
function leg(platform: Platform, position: number, n: number, hasMore = false): LegSlice {
  return { platform, position, items: Array.from({ length: n }, (_, i) => prop(platform, `${platform[0]}${position + i}`)), hasMore };
}

const ids = (items: Property[]) => items.map((p) => p.platformListingId);

describe('mergePage: recommended round-robin', () => {
  it('takes one item per leg in leg order', () => {
    const page = mergePage([leg('airbnb', 0, 5), leg('booking', 0, 5), leg('vrbo', 0, 5)], 'recommended', 7);
    expect(ids(page.items)).toEqual(['a0', 'b0', 'v0', 'a1', 'b1', 'v1', 'a2']);
    expect(page.positions).toEqual({ airbnb: 3, booking: 2, vrbo: 2 });
    expect(page.taken).toEqual({ airbnb: 3, booking: 2, vrbo: 2 });
    expect(page.hasMore).toBe(true);
  });

  it('continues on the next page with the leg that has given fewest items', () => {
    const page2 = mergePage([leg('airbnb', 3, 5), leg('booking', 2, 5), leg('vrbo', 2, 5)], 'recommended', 7);
    expect(ids(page2.items)).toEqual(['b2', 'v2', 'a3', 'b3', 'v3', 'a4', 'b4']);
    expect(page2.positions).toEqual({ airbnb: 5, booking: 5, vrbo: 4 });
    expect(page2.taken).toEqual({ airbnb: 2, booking: 3, vrbo: 2 });
  });

  it('two pages equal one page of twice the size', () => {
    const all = mergePage([leg('airbnb', 0, 10), leg('booking', 0, 10), leg('google', 0, 10)], 'recommended', 14);
    const p1 = mergePage([leg('airbnb', 0, 10), leg('booking', 0, 10), leg('google', 0, 10)], 'recommended', 7);
    const p2 = mergePage([leg('airbnb', p1.positions.airbnb!, 10), leg('booking', p1.positions.booking!, 10), leg('google', p1.positions.google!, 10)], 'recommended', 7);
    expect([...ids(p1.items), ...ids(p2.items)]).toEqual(ids(all.items));
  });

  it('keeps going with the other legs when one runs out, and stops when all are exhausted', () => {
    const page = mergePage([leg('airbnb', 0, 1), leg('booking', 0, 4), leg('vrbo', 0, 2)], 'recommended', 20);
    expect(ids(page.items)).toEqual(['a0', 'b0', 'v0', 'b1', 'v1', 'b2', 'b3']);
    expect(page.positions).toEqual({ airbnb: 1, booking: 4, vrbo: 2 });
    expect(page.hasMore).toBe(false);
  });

  it('hasMore follows leftover items or a leg that reports more', () => {
    expect(mergePage([leg('airbnb', 0, 2), leg('booking', 0, 2)], 'recommended', 4).hasMore).toBe(false);
    expect(mergePage([leg('airbnb', 0, 2), leg('booking', 0, 2, true)], 'recommended', 4).hasMore).toBe(true);
    expect(mergePage([leg('airbnb', 0, 2), leg('booking', 0, 3)], 'recommended', 4).hasMore).toBe(true);
  });

  it('reports positions for legs that gave nothing, and handles no legs', () => {
    const page = mergePage([leg('airbnb', 4, 0), leg('vrbo', 0, 2)], 'recommended', 5);
    expect(page.positions).toEqual({ airbnb: 4, vrbo: 2 });
    expect(page.taken).toEqual({ airbnb: 0, vrbo: 2 });
    expect(mergePage([], 'recommended', 10)).toEqual({ items: [], positions: {}, taken: {}, hasMore: false });
  });
});

describe('mergePage: k-way merge for sorted orders', () => {
  const priced = () => [
    { platform: 'airbnb' as const, position: 0, hasMore: false, items: [prop('airbnb', 'a1', { price: 50 }), prop('airbnb', 'a2', { price: 120 }), prop('airbnb', 'a3', { price: 300 })] },
    { platform: 'booking' as const, position: 0, hasMore: false, items: [prop('booking', 'b1', { price: 80 }), prop('booking', 'b2', { price: 90 }), prop('booking', 'b3', { price: null })] },
    { platform: 'vrbo' as const, position: 0, hasMore: true, items: [prop('vrbo', 'v1', { price: 60 }), prop('vrbo', 'v2', { price: 500 })] },
  ];

  it('price_asc merges ascending, missing prices last', () => {
    const page = mergePage(priced(), 'price_asc', 10);
    expect(ids(page.items)).toEqual(['a1', 'v1', 'b1', 'b2', 'a2', 'a3', 'v2', 'b3']);
    expect(page.hasMore).toBe(true);
  });

  it('price_asc stops at the limit with positions per leg', () => {
    const page = mergePage(priced(), 'price_asc', 4);
    expect(ids(page.items)).toEqual(['a1', 'v1', 'b1', 'b2']);
    expect(page.positions).toEqual({ airbnb: 1, booking: 2, vrbo: 1 });
  });

  it('price_desc merges descending, missing prices last', () => {
    const legs = priced().map((l) => ({ ...l, items: [...l.items].sort(compareForSort('price_desc')!) }));
    expect(ids(legs[1]!.items)).toEqual(['b2', 'b1', 'b3']);
    expect(ids(mergePage(legs, 'price_desc', 10).items)).toEqual(['v2', 'a3', 'a2', 'b2', 'b1', 'v1', 'a1', 'b3']);
  });

  it('rating_desc compares the share of the native scale, nulls last', () => {
    const legs: LegSlice[] = [
      { platform: 'airbnb', position: 0, hasMore: false, items: [prop('airbnb', 'a1', { rating: 4.8 }), prop('airbnb', 'a2', { rating: 4.4 }), prop('airbnb', 'a3', { rating: null })] },
      { platform: 'booking', position: 0, hasMore: false, items: [prop('booking', 'b1', { rating: 9.7 }), prop('booking', 'b2', { rating: 9.0 }), prop('booking', 'b3', { rating: 8.7 })] },
    ];
    // 9.7/10 = .97 > 4.8/5 = .96 > 9.0/10 = .90 > 4.4/5 = .88 > 8.7/10 = .87; a raw comparison would put every booking item first.
    expect(ids(mergePage(legs, 'rating_desc', 10).items)).toEqual(['b1', 'a1', 'b2', 'a2', 'b3', 'a3']);
  });

  it('equal shares on different scales are ordered by listing id, deterministically', () => {
    const cmp = compareForSort('rating_desc')!;
    const a = prop('airbnb', 'z9', { rating: 4.5 });
    const b = prop('booking', 'a1', { rating: 9 });
    expect(cmp(a, b)).toBeGreaterThan(0);
    expect(cmp(b, a)).toBeLessThan(0);
    const legs: LegSlice[] = [{ platform: 'airbnb', position: 0, hasMore: false, items: [a] }, { platform: 'booking', position: 0, hasMore: false, items: [b] }];
    expect(ids(mergePage(legs, 'rating_desc', 2).items)).toEqual(['a1', 'z9']);
  });

  it('an exact tie goes to the earlier leg', () => {
    const legs: LegSlice[] = [
      { platform: 'vrbo', position: 0, hasMore: false, items: [prop('vrbo', 'same', { price: 10 })] },
      { platform: 'airbnb', position: 0, hasMore: false, items: [prop('airbnb', 'same', { price: 10 })] },
    ];
    expect(mergePage(legs, 'price_asc', 2).items.map((p) => p.platform)).toEqual(['vrbo', 'airbnb']);
  });

  it('compareForSort: recommended has no comparator; price ties break by id', () => {
    expect(compareForSort('recommended')).toBeNull();
    const cmp = compareForSort('price_asc')!;
    expect(cmp(prop('airbnb', '2', { price: 10 }), prop('airbnb', '1', { price: 10 }))).toBeGreaterThan(0);
    expect(cmp(prop('airbnb', '1', { price: null }), prop('airbnb', '2', { price: 1e9 }))).toBeGreaterThan(0);
    expect(compareForSort('price_desc')!(prop('airbnb', '1', { price: null }), prop('airbnb', '2', { price: 0 }))).toBeGreaterThan(0);
  });
});
