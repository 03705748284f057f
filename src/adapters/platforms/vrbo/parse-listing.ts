import { NATIVE_LISTING_ID } from '../../../domain/listing-ids/id-shapes.js';
import type { Amenity, Property, PropertyType } from '../../../domain/model/property.js';
import { compositeId, RATING_SCALE } from '../../../domain/platforms.js';
import { dig, num, str, type FieldWarnings } from '../parse-support.js';
import { mapAmenityBadges, mapPropertyType } from './mappings.js';

/**
 * One legacy Vrbo SERP `listings[]` item → Property.
 *
 * Ids: Vrbo items carry three ids: `listingId` "321.7757.7757" (namespace.property.unit, internal),
 * `listingNumber` 7757 and `propertyId` "7757". For listings of the HomeAway ("trips") namespace
 * `propertyId` is "4888781ha" while `listingNumber` is 4888781, and the public URL is
 * vrbo.com/4888781ha. The two namespaces number their listings independently (the sample holds
 * both 230943ha and 237347), so the bare number alone could name two properties: the native id is
 * `propertyId` verbatim ("7757", "4888781ha"), which is also the id in the listing's public URL.
 */
export const VRBO_ID = NATIVE_LISTING_ID.vrbo!;

export interface ListingContext {
  /** Origin of public listing URLs, e.g. https://www.vrbo.com (no trailing slash). */
  siteUrl: string;
}

/** The id in a detailPageUrl such as "/4888781ha?unitId=5935865&noDates=true", else null. */
function detailPath(detailPageUrl: string | null): { id: string; unitId: string | null } | null {
  if (detailPageUrl === null) return null;
  const m = /^\/(\d{1,12}(?:ha)?)\/?(?:\?([^#]*))?(?:#.*)?$/.exec(detailPageUrl);
  if (!m) return null;
  const unitId = new URLSearchParams(m[2] ?? '').get('unitId');
  return { id: m[1]!, unitId: unitId !== null && /^\d{1,12}$/.test(unitId) ? unitId : null };
}

/** The native id of an item, or null when it has none or its ids contradict each other. */
export function vrboNativeId(raw: unknown): string | null {
  const detail = detailPath(str(dig(raw, 'detailPageUrl')));
  const id = str(dig(raw, 'propertyId')) ?? detail?.id ?? null;
  if (id === null || !VRBO_ID.test(id)) return null;
  const number = num(dig(raw, 'listingNumber'));
  if (number !== null && String(number) !== id.replace(/ha$/, '')) return null;
  if (detail !== null && detail.id !== id) return null;
  return id;
}

function listingUrl(raw: unknown, id: string, ctx: ListingContext): string {
  const unitId = detailPath(str(dig(raw, 'detailPageUrl')))?.unitId ?? null;
  return `${ctx.siteUrl}/${id}${unitId !== null ? `?unitId=${unitId}` : ''}`;
}

function intAtLeast(value: unknown, min: number): number | null {
  const n = num(value);
  return n !== null && Number.isInteger(n) && n >= min ? n : null;
}

/**
 * Bathrooms count full ones as 1 and half ones (toilet and washbasin) as 0.5, the US convention
 * Vrbo owners use themselves (listing 1282460, `{full: 2, half: 1}`, is headlined "2.5 BATH").
 * `toiletOnly` rooms are not bathrooms and are not counted. All zero reads as "not entered"
 * (a 3-bedroom house with no bathroom), so it is null with a warning rather than a stated 0.
 */
function bathrooms(raw: unknown, w: FieldWarnings): number | null {
  const full = intAtLeast(dig(raw, 'bathrooms', 'full'), 0);
  const half = intAtLeast(dig(raw, 'bathrooms', 'half'), 0);
  if (full === null || half === null) return w.missing('bathrooms');
  if (full + half === 0) return w.missing('bathrooms', 'Vrbo states 0 full and 0 half bathrooms, which reads as not entered');
  return full + half / 2;
}

function guestRating(raw: unknown, reviewCount: number | null, w: FieldWarnings): number | null {
  if (reviewCount === 0) return null; // no reviews: there is no rating to report
  const rating = num(dig(raw, 'averageRating'));
  if (rating === null) return w.missing('guestRating');
  if (rating < 1 || rating > RATING_SCALE.vrbo) return w.missing('guestRating', `averageRating ${rating} is outside the 1-5 scale`);
  return rating;
}

function coordinate(value: unknown, limit: number): number | null {
  const n = num(value);
  return n !== null && Math.abs(n) <= limit ? n : null;
}

function propertyType(raw: unknown, w: FieldWarnings): PropertyType {
  const label = str(dig(raw, 'propertyType'));
  if (label === null) {
    w.missing('propertyType', 'not present in the platform response; reported as other');
    return 'other';
  }
  const mapped = mapPropertyType(label);
  if (mapped === null) w.add('property_type_unmapped', `Vrbo property type "${label}" has no canonical equivalent; reported as other`);
  return mapped ?? 'other';
}

function images(raw: unknown, w: FieldWarnings): string[] | null {
  const list = dig(raw, 'images');
  if (!Array.isArray(list)) return w.missing('images');
  return list
    .map((img) => str(dig(img, 'c6_uri')) ?? str(dig(img, 'c9_uri')))
    .filter((u): u is string => u !== null && u.startsWith('https://'));
}

/**
 * The Premier Host badge (id "1") is Vrbo's counterpart of a superhost. SERP items show at most two
 * ranked badges, so its absence is not a statement that the host is not Premier: then null.
 */
function host(raw: unknown, w: FieldWarnings): Property['host'] {
  w.missing('host.name', 'Vrbo search results do not name the host');
  const badges = dig(raw, 'rankedBadges');
  const premier = Array.isArray(badges) && badges.some((b) => String(dig(b, 'id')) === '1' || str(dig(b, 'name')) === 'Premier Host');
  if (premier) return { name: null, isSuperhost: true };
  return w.missing('host', 'no Premier Host badge shown, and search results state nothing else about the host');
}

/**
 * The Property of one item, or null (with a warning) when the item has no usable id or name.
 * `price` is always null here: see price-summary.ts and search.ts.
 */

/**
 * Amenities from the SERP badges. Badges are a listing's highlights, not its full list, so no
 * badge (or none that maps) does not say the listing has no amenities: that is null with a
 * warning, never []. Vrbo's search states nowhere that a listing has none.
 */
function amenitiesOf(badges: unknown, w: FieldWarnings): Amenity[] | null {
  if (!Array.isArray(badges)) return w.missing('amenities');
  const mapped = mapAmenityBadges(badges);
  if (mapped.length > 0) return mapped;
  return w.missing('amenities', badges.length ? 'none of the listing\'s badges names an amenity of the taxonomy' : 'the listing shows no amenity badges');
}
export function parseListing(raw: unknown, ctx: ListingContext, w: FieldWarnings): Property | null {
  const id = vrboNativeId(raw);
  if (id === null) {
    w.add('item_skipped', `a Vrbo search item without a consistent property id was skipped (listingId ${String(dig(raw, 'listingId'))})`);
    return null;
  }
  const name = str(dig(raw, 'propertyMetadata', 'headline')) ?? str(dig(raw, 'propertyMetadata', 'propertyName'));
  if (name === null) {
    w.add('item_skipped', `Vrbo listing ${id} has neither headline nor property name; skipped`);
    return null;
  }
  const latitude = coordinate(dig(raw, 'geoCode', 'latitude'), 90);
  const longitude = coordinate(dig(raw, 'geoCode', 'longitude'), 180);
  const located = latitude !== null && longitude !== null;
  if (!located) w.missing('location.lat/lng');
  w.missing('location.city/region/country', 'Vrbo search results carry coordinates only');
  const reviewCount = intAtLeast(dig(raw, 'reviewCount'), 0) ?? w.missing('reviewCount');
  const badges = dig(raw, 'amenitiesBadges');
  return {
    id: compositeId('vrbo', id),
    platform: 'vrbo',
    platformListingId: id,
    url: listingUrl(raw, id, ctx),
    name,
    propertyType: propertyType(raw, w),
    location: { lat: located ? latitude : null, lng: located ? longitude : null, city: null, region: null, country: null },
    starRating: null, // vacation rentals have no star classification
    guestRating: guestRating(raw, reviewCount, w),
    ratingScale: RATING_SCALE.vrbo,
    reviewCount,
    maxOccupancy: intAtLeast(dig(raw, 'sleeps'), 1) ?? w.missing('maxOccupancy'),
    bedrooms: intAtLeast(dig(raw, 'bedrooms'), 0) ?? w.missing('bedrooms'),
    bathrooms: bathrooms(raw, w),
    amenities: amenitiesOf(badges, w),
    images: images(raw, w),
    host: host(raw, w),
    price: null,
  };
}
