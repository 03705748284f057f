import { warnOnce } from './parse-price.js';
import { dig, str, type FieldWarnings } from '../parse-support.js';

/**
 * What Booking.com's search items say about a property's place and class, read as the platform
 * writes it rather than as it resembles something else (issue 13 item 5).
 */

/**
 * Booking.com writes some cities with their region in brackets: "Chicago (Illinois)". That is a
 * city and a region, split here; a plain city leaves the region null with a warning.
 */
export function cityAndRegion(raw: string | null, w: FieldWarnings): { city: string | null; region: string | null } {
  if (raw === null) return { city: w.missing('location.city'), region: w.missing('location.region', 'Booking.com search results name no region') };
  const m = /^(.+?)\s*\(([^()]+)\)$/.exec(raw);
  if (m) return { city: m[1]!.trim(), region: m[2]!.trim() };
  return { city: raw, region: w.missing('location.region', 'Booking.com search results name no region') };
}

/** Booking.com's captions, in English, for its two 1-5 scales (the recorded answers carry them). */
const TILES_CAPTION = /^Awarded to home and apartment-like properties by Booking\.com/i;
const STARS_CAPTION = /^This star rating is provided to Booking\.com by the property/i;

/**
 * `basicPropertyData.starRating` is either hotel stars (`symbol` STARS: the property's official
 * classification) or Booking.com's own "tiles" (`symbol` TILES: a quality rating Booking.com
 * awards to homes and apartments from their facilities, size, location and service). Tiles are not
 * stars: starRating is null for them, with a warning saying what the tiles were. Without a symbol
 * the caption tells them apart; a value neither says is not reported as stars.
 */
export function starsOf(node: unknown, value: number | null, w: FieldWarnings): number | null {
  if (value === null || value <= 0) return null;
  const symbol = str(dig(node, 'symbol'))?.toUpperCase() ?? null;
  const caption = str(dig(node, 'caption', 'translation')) ?? '';
  const tiles = symbol === 'TILES' || (symbol === null && TILES_CAPTION.test(caption));
  const stars = symbol === 'STARS' || (symbol === null && STARS_CAPTION.test(caption));
  if (tiles) {
    warnOnce(w, 'rating_not_stars', "booking: some properties carry Booking.com's quality tiles (1-5, awarded by Booking.com to homes and apartments for facilities, size, location and service), not hotel stars; their starRating is null.");
    return null;
  }
  if (stars) return value;
  warnOnce(w, 'field_unavailable', 'starRating: booking gave a 1-5 class without saying whether it is stars or tiles; it is left null.');
  return null;
}
