import type { Property, PropertyType } from '../../../domain/model/property.js';
import { compositeId, RATING_SCALE } from '../../../domain/platforms.js';
import { LegFailure, UpstreamFormatError } from '../../../domain/ports/platform.js';
import { dig, num, str, type FieldWarnings } from '../parse-support.js';
import { graphqlData } from './client.js';
import { hotelSearchUrl, pageUrl } from './ids.js';
import { ACCOMMODATION_TYPES, refineByName } from './mappings.js';
import { cityAndRegion, starsOf } from './place-and-class.js';
import { stayPriceOf, warnOnce } from './parse-price.js';

/** Booking.com's image host; search items give photo paths relative to it. */
const IMAGE_HOST = 'https://cf.bstatic.com';

export interface SearchPage {
  results: unknown[];
  /** `pagination.nbResultsTotal`, when the platform says. */
  total: number | null;
}

/** The `results[]` and total of a FullSearch answer (`data.searchQueries.search`). */
export function parseSearchPage(json: unknown): SearchPage {
  const search = dig(graphqlData(json), 'searchQueries', 'search');
  const results = dig(search, 'results');
  if (!Array.isArray(results)) throw new UpstreamFormatError('booking answered a search without a results array');
  const total = num(dig(search, 'pagination', 'nbResultsTotal'));
  return { results, total: total !== null && total >= 0 ? total : null };
}

export function hotelIdOf(item: unknown): string | null {
  const id = num(dig(item, 'basicPropertyData', 'id'));
  return id !== null && Number.isInteger(id) && id > 0 ? String(id) : null;
}

/**
 * The result for one hotel in a search made for it (destType HOTEL). Such a search may also list
 * nearby properties; an answer that lists only other properties is another property's data, and
 * is refused. null: the platform listed nothing.
 */
export function hotelItem(page: SearchPage, hotelId: number): unknown | null {
  const item = page.results.find((r) => hotelIdOf(r) === String(hotelId));
  if (item !== undefined) return item;
  const other = page.results.map(hotelIdOf).find((id) => id !== null);
  if (other) throw new LegFailure('failed', `booking answered for listing ${other}, not ${hotelId}`);
  return null;
}

function propertyType(item: unknown, name: string, w: FieldWarnings): PropertyType {
  const typeId = num(dig(item, 'basicPropertyData', 'accommodationTypeId'));
  const mapped = typeId === null ? undefined : ACCOMMODATION_TYPES[typeId];
  if (mapped) return refineByName(typeId!, mapped, name);
  w.missing('propertyType', typeId === null ? 'no accommodation type; reported as "other"' : `accommodation type ${typeId} is not mapped; reported as "other"`);
  return 'other';
}

/**
 * Bedrooms and bathrooms of the unit the search matched. Hotel rooms come with every count at 0
 * (a "Single Room with Private Bathroom" has nbBathrooms 0), so a 0 is only believed when the
 * configuration counts some room at all (a studio: 0 bedrooms, 1 bathroom).
 */
function unitCounts(item: unknown, w: FieldWarnings): { bedrooms: number | null; bathrooms: number | null } {
  const cfg = dig(item, 'matchingUnitConfigurations', 'commonConfiguration');
  const count = (key: string) => {
    const n = num(dig(cfg, key));
    return n !== null && Number.isInteger(n) && n >= 0 ? n : null;
  };
  const bedrooms = count('nbBedrooms');
  const bathrooms = count('nbBathrooms');
  const counted = [bedrooms, bathrooms, count('nbLivingrooms'), count('nbKitchens')].some((n) => n !== null && n > 0);
  const stated = (n: number | null, field: string) => (n !== null && (n > 0 || counted) ? n : w.missing(field, 'the matched unit does not count its rooms'));
  return { bedrooms: stated(bedrooms, 'bedrooms'), bathrooms: stated(bathrooms, 'bathrooms') };
}

function imagesOf(item: unknown, w: FieldWarnings): string[] | null {
  const main = dig(item, 'basicPropertyData', 'photos', 'main');
  const rel = str(dig(main, 'highResJpegUrl', 'relativeUrl')) ?? str(dig(main, 'highResUrl', 'relativeUrl'));
  if (rel && /^https:\/\//.test(rel)) return [rel];
  if (rel && rel.startsWith('/') && !rel.startsWith('//')) return [`${IMAGE_HOST}${rel}`];
  return w.missing('images');
}

export interface ItemContext {
  currency: string;
  /** Nights of the stay asked for; null for a search without dates (no price then). */
  nights: number | null;
}

/**
 * One FullSearch result as a Property. Search results carry no coordinates, amenities, host or
 * occupancy: those are null with a warning. null (with a warning) for an item without id or name.
 */
export function parseSearchItem(item: unknown, ctx: ItemContext, w: FieldWarnings): Property | null {
  const nativeId = hotelIdOf(item);
  const name = str(dig(item, 'displayName', 'text'));
  if (!nativeId || !name) {
    warnOnce(w, 'item_skipped', 'booking: a search result without id or name was left out.');
    return null;
  }
  const data = dig(item, 'basicPropertyData');
  const loc = dig(data, 'location');
  const countryCode = str(dig(loc, 'countryCode'));
  const score = dig(data, 'reviewScore');
  const reviewCount = num(dig(score, 'reviewCount'));
  const rating = num(dig(score, 'score'));
  const stars = num(dig(data, 'starRating', 'value'));
  const { bedrooms, bathrooms } = unitCounts(item, w);
  const url = pageUrl(countryCode, str(dig(data, 'pageName')));
  if (!url) warnOnce(w, 'field_unavailable', 'url: a search result has no page name; its url is a search for its hotel id.');
  return {
    id: compositeId('booking', nativeId),
    platform: 'booking',
    platformListingId: nativeId,
    url: url ?? hotelSearchUrl(nativeId),
    name,
    propertyType: propertyType(item, name, w),
    location: {
      lat: num(dig(loc, 'latitude')) ?? w.missing('location.lat', 'Booking.com search results carry no coordinates'),
      lng: num(dig(loc, 'longitude')) ?? w.missing('location.lng', 'Booking.com search results carry no coordinates'),
      ...cityAndRegion(str(dig(loc, 'city')), w),
      country: countryCode && /^[a-z]{2}$/i.test(countryCode) ? countryCode.toUpperCase() : w.missing('location.country'),
    },
    starRating: starsOf(dig(data, 'starRating'), stars, w),
    // A property without reviews has a score of 0 and a count of 0: no rating, positively.
    guestRating: reviewCount === 0 ? null : (rating ?? w.missing('guestRating')),
    ratingScale: RATING_SCALE.booking,
    reviewCount: reviewCount !== null && Number.isInteger(reviewCount) && reviewCount >= 0 ? reviewCount : w.missing('reviewCount'),
    maxOccupancy: w.missing('maxOccupancy', 'Booking.com search results state no occupancy'),
    bedrooms,
    bathrooms,
    amenities: w.missing('amenities', 'Booking.com search results list no facilities'),
    images: imagesOf(item, w),
    host: w.missing('host', 'Booking.com search results name no host'),
    price: ctx.nights === null ? null : stayPriceOf(item, ctx.nights, ctx.currency, w),
  };
}
