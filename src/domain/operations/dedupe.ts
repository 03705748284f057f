import type { Property } from '../model/property.js';

/**
 * Issue 16 item 5: the same home listed on several platforms. Two items are judged the same
 * property when, on different platforms:
 *   - their coordinates are within SAME_PLACE_METRES (platforms geocode a home a little apart),
 *   - their names are similar: at least NAME_SIMILARITY of their words shared (Jaccard),
 *   - bedrooms are equal and guests (maxOccupancy) equal, when both platforms state them.
 * Each group keeps the item the sort put first; the others become its `alsoOn` lines.
 */
export const SAME_PLACE_METRES = 50;
export const NAME_SIMILARITY = 0.6;

export interface AlsoOn {
  platform: Property['platform'];
  platformListingId: string;
  price: number | null;
}

function metresBetween(a: Property, b: Property): number {
  const { lat: la, lng: lo } = a.location;
  const { lat: lb, lng: lob } = b.location;
  if (la === null || lo === null || lb === null || lob === null) return Infinity;
  const rad = Math.PI / 180;
  const x = (lob - lo) * rad * Math.cos(((la + lb) / 2) * rad);
  const y = (lb - la) * rad;
  return Math.hypot(x, y) * 6_371_000;
}

const words = (name: string) => new Set(name.toLowerCase().normalize('NFKD').replace(/[^\p{L}\p{N}\s]/gu, ' ').split(/\s+/).filter(Boolean));

function nameSimilarity(a: string, b: string): number {
  const [wa, wb] = [words(a), words(b)];
  const shared = [...wa].filter((w) => wb.has(w)).length;
  const union = new Set([...wa, ...wb]).size;
  return union === 0 ? 0 : shared / union;
}

const sameWhenStated = (x: number | null, y: number | null) => x === null || y === null || x === y;

export function sameProperty(a: Property, b: Property): boolean {
  return (
    a.platform !== b.platform &&
    metresBetween(a, b) <= SAME_PLACE_METRES &&
    nameSimilarity(a.name, b.name) >= NAME_SIMILARITY &&
    sameWhenStated(a.bedrooms, b.bedrooms) &&
    sameWhenStated(a.maxOccupancy, b.maxOccupancy)
  );
}

/** One item per property, in the given order; `deduplicated` counts the items folded into another's `alsoOn`. */
export function dedupe(items: Property[]): { items: (Property & { alsoOn?: AlsoOn[] })[]; deduplicated: number } {
  const kept: (Property & { alsoOn?: AlsoOn[] })[] = [];
  let deduplicated = 0;
  for (const item of items) {
    const home = kept.find((k) => sameProperty(k, item) && !(k.alsoOn ?? []).some((o) => o.platform === item.platform));
    if (!home) {
      kept.push({ ...item }); // a copy: items may be shared with the leg cache
      continue;
    }
    home.alsoOn = [...(home.alsoOn ?? []), { platform: item.platform, platformListingId: item.platformListingId, price: item.price?.totalPrice ?? null }];
    deduplicated++;
  }
  return { items: kept, deduplicated };
}
