import type { Property } from '../model/property.js';
import type { Platform } from '../platforms.js';

export const SEARCH_SORTS = ['recommended', 'price_asc', 'price_desc', 'rating_desc', 'distance_asc'] as const;
export type SearchSort = (typeof SEARCH_SORTS)[number];

/** One platform's slice of results, starting at its cursor position and already in `sort` order. */
export interface LegSlice {
  platform: Platform;
  /** Items this platform has already contributed on earlier pages. */
  position: number;
  items: Property[];
  /** More items exist beyond `items`. */
  hasMore: boolean;
}

export interface MergedPage {
  items: Property[];
  /** New position per platform after this page. */
  positions: Partial<Record<Platform, number>>;
  taken: Partial<Record<Platform, number>>;
  hasMore: boolean;
}

/** Rating as a share of its native scale, so a 9.0/10 and a 4.5/5 compare equal. Null sorts last. */
function ratingShare(p: Property): number {
  return p.guestRating === null ? -1 : p.guestRating / p.ratingScale;
}

function totalPrice(p: Property, missing: number): number {
  return p.price?.totalPrice ?? missing;
}

/** The item order within one platform for a sort (ties by platform listing id, for determinism). */
export function compareForSort(sort: SearchSort): ((a: Property, b: Property) => number) | null {
  const byId = (a: Property, b: Property) => (a.platformListingId < b.platformListingId ? -1 : a.platformListingId > b.platformListingId ? 1 : 0);
  switch (sort) {
    case 'recommended':
      return null;
    case 'price_asc':
      return (a, b) => totalPrice(a, Infinity) - totalPrice(b, Infinity) || byId(a, b);
    case 'price_desc':
      return (a, b) => totalPrice(b, -Infinity) - totalPrice(a, -Infinity) || byId(a, b);
    case 'rating_desc':
      return (a, b) => ratingShare(b) - ratingShare(a) || byId(a, b);
    case 'distance_asc':
      // Items without a distance (no coordinates, or no centre) go last.
      return (a, b) => (a.distanceKm ?? Infinity) - (b.distanceKm ?? Infinity) || byId(a, b);
    default: {
      const unhandled: never = sort;
      throw new Error(`unknown sort ${String(unhandled)}`);
    }
  }
}

/**
 * Merges the legs into one page of `limit` items. `recommended` is a round-robin in leg order
 * that continues across pages (the leg that has given fewest items goes next); the other sorts are
 * a k-way merge in the sort's order (equal values ordered by listing id, then by leg order).
 */
export function mergePage(legs: LegSlice[], sort: SearchSort, limit: number): MergedPage {
  const compare = compareForSort(sort);
  const next = legs.map(() => 0);
  const items: Property[] = [];
  while (items.length < limit) {
    let pick = -1;
    for (let i = 0; i < legs.length; i++) {
      const leg = legs[i]!;
      const idx = next[i]!;
      if (idx >= leg.items.length) continue;
      if (pick < 0) {
        pick = i;
        continue;
      }
      const best = legs[pick]!;
      if (compare) {
        if (compare(leg.items[idx]!, best.items[next[pick]!]!) < 0) pick = i;
      } else if (leg.position + idx < best.position + next[pick]!) {
        pick = i;
      }
    }
    if (pick < 0) break;
    items.push(legs[pick]!.items[next[pick]!]!);
    next[pick]! += 1;
  }
  const positions: MergedPage['positions'] = {};
  const taken: MergedPage['taken'] = {};
  let hasMore = false;
  legs.forEach((leg, i) => {
    positions[leg.platform] = leg.position + next[i]!;
    taken[leg.platform] = next[i]!;
    if (next[i]! < leg.items.length || leg.hasMore) hasMore = true;
  });
  return { items, positions, taken, hasMore };
}
