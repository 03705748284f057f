import type { Operation, Platform } from '../platforms.js';

/**
 * Ids an operation of a platform cannot take, for sandbox and live keys alike, so a client meets
 * the same rule in both. Google's reviews are Google Maps reviews, read for a Maps place id
 * (`ChIJ…`, Google's Place ID); the google listing id of search, listing and price is a Google
 * Hotels property token, which no recorded upstream answer leads to a place id. A token is
 * refused with the reason rather than resolved by a guess.
 */
const PLACE_ID = /^ChIJ[A-Za-z0-9_-]{10,200}$/;

export const GOOGLE_REVIEWS_NEED_PLACE_ID =
  'google reviews are read from Google Maps and need the property\'s Maps place id (ChIJ…); a Google Hotels property token cannot be resolved to its place with any recorded upstream answer.';

export function isPlaceId(id: string): boolean {
  return PLACE_ID.test(id);
}

/** Why `op` on `platform` cannot take this listing id (a 400 naming it), or null. */
export function listingIdProblem(platform: Platform, op: Operation, listingId: string): string | null {
  if (platform === 'google' && op === 'reviews' && !isPlaceId(listingId)) return GOOGLE_REVIEWS_NEED_PLACE_ID;
  return null;
}
