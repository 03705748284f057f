import type { Warning } from '../../../domain/model/common.js';
import { ambiguousProperty, normaliseName, type NamedProperty } from '../../../domain/property-names.js';
import { CITIES, matchPlace } from './gazetteer.js';
import { listingId, LISTINGS_PER_CITY, type SandboxPlatform } from './ids.js';
import type { SandboxListing } from './property.js';

type ListingAt = (platform: SandboxPlatform, id: string) => SandboxListing;

/** The google hotel a price-compare name resolved to, and what was said about the match. */
export interface ResolvedHotel {
  googleHotelId: string;
  warnings: Warning[];
}

/** Why the first match is the one compared: the order a client sees them in. */
const FIRST_RULE = "the first the sandbox's search lists (GET /v1/search with platforms=google, recommended order)";

/** The address a sandbox hotel is shown with: "Lisbon, Lisbon, PT". */
export function sandboxAddress(listing: SandboxListing): string | null {
  const { city, region, country } = listing.property.location;
  return [city, region, country].filter((part) => part !== null).join(', ') || null;
}

/** A city's google hotels in the order the sandbox's search lists them (recommended: by rank). */
export function cityHotels(city: number, listingAt: ListingAt): NamedProperty[] {
  const hotels = [];
  for (let serial = 1; serial <= LISTINGS_PER_CITY.google; serial++) {
    const id = listingId('google', city, serial);
    hotels.push({ id, listing: listingAt('google', id) });
  }
  return hotels
    .sort((a, b) => a.listing.rank - b.listing.rank)
    .map(({ id, listing }) => ({ name: listing.property.name, address: sandboxAddress(listing), googleHotelId: id }));
}

/**
 * Issue 34 item 1: a name is resolved among the hotels the sandbox's own search has in the place
 * (every place when no location is given), matched exactly as the live path does, so the answer
 * is the same property, id and prices as by its googleHotelId. No such hotel: null (a 404 naming
 * `name`). Several: the first in search order, with an `ambiguous_property` warning naming the rest.
 */
export function resolveHotelName(name: string, location: string | null, listingAt: ListingAt): ResolvedHotel | null {
  const wanted = normaliseName(name);
  if (wanted === '') return null;
  const place = location === null ? null : matchPlace(location);
  if (location !== null && place === null) return null;
  const cities = place === null ? CITIES.map((_, i) => i) : [place.city];
  const [first, ...others] = cities.flatMap((city) => cityHotels(city, listingAt)).filter((h) => normaliseName(h.name) === wanted);
  if (!first) return null;
  return { googleHotelId: first.googleHotelId, warnings: others.length ? [ambiguousProperty(name, first, others, FIRST_RULE, 'google')] : [] };
}
