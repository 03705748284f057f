import type { Amenity, Property } from '../../../domain/model/property.js';
import { compositeId, RATING_SCALE } from '../../../domain/platforms.js';
import { LegFailure, type Adapted, UpstreamFormatError } from '../../../domain/ports/platform.js';
import { dig, FieldWarnings, num, str } from '../parse-support.js';

/**
 * Expedia Group's GraphQL `PropertyInfo` (the family Vrbo's current site runs on), as a
 * pass-through Hotels.com API serves it (recorded: ../shared/upstream-samples/expedia/
 * graphql-propertyInfo-*.json). No adapter serves it: Expedia is not a live platform, and this
 * record is a Hotels.com property reached through a third party, so it cannot stand for Vrbo's
 * own answers. The reader is kept, tested on the recording, for when such an adapter exists.
 * What the record says only in display strings is read from them exactly or not at all:
 * "8.2/10 Very Good" (score), "See all 168 reviews" (count); `countryCode` is ISO alpha-3 ("VNM"),
 * which the schema's alpha-2 country cannot take without a table that is not here (null, warned).
 */
const PLATFORM = 'expedia' as const;

/** Amenity texts of the record that name a taxonomy amenity exactly (matched on the whole text). */
const AMENITY_TEXTS: readonly [RegExp, Amenity][] = [
  [/^free wifi( in rooms)?$/i, 'wifi'],
  [/^air conditioning$/i, 'air_conditioning'],
  [/^free onsite self parking$/i, 'free_parking'],
  [/^\d+ restaurants?$|^restaurant$/i, 'restaurant'],
  [/^\d+ bars?\/lounges?$|^bar\/lounge$/i, 'bar'],
  [/^room service\b/i, 'room_service'],
  [/^24-hour front desk$/i, 'front_desk_24h'],
  [/^barbecue grills?$/i, 'bbq_grill'],
  [/^airport shuttle\b/i, 'airport_shuttle'],
  [/^(\d+-inch )?(lcd |led |flat-screen )?tv$/i, 'tv'],
];

function amenitiesOf(json: unknown, w: FieldWarnings): Amenity[] | null {
  const groups = dig(json, 'summary', 'amenities', 'amenities');
  if (!Array.isArray(groups)) return w.missing('amenities');
  const texts = groups.flatMap((g) => {
    const contents = dig(g, 'contents');
    return (Array.isArray(contents) ? contents : []).flatMap((c) => {
      const items = dig(c, 'items');
      return (Array.isArray(items) ? items : []).map((i) => str(dig(i, 'text'))).filter((t): t is string => t !== null);
    });
  });
  const found = new Set<Amenity>();
  for (const t of texts) for (const [re, a] of AMENITY_TEXTS) if (re.test(t.trim())) found.add(a);
  return found.size ? [...found] : w.missing('amenities', 'no amenity text names one of the taxonomy');
}

/** The record carries no page URL: an adapter adds its own site's URL for the id, never a guessed one. */
export type PropertyInfoListing = Omit<Property, 'url'>;

export function parsePropertyInfo(json: unknown, listingId: string): Adapted<PropertyInfoListing> {
  const id = str(dig(json, 'summary', 'id'));
  if (id === null) throw new UpstreamFormatError('expedia propertyInfo has no summary.id');
  if (id !== listingId) throw new LegFailure('failed', `expedia answered for listing ${id}, not ${listingId}`);
  const name = str(dig(json, 'summary', 'name'));
  if (name === null) throw new UpstreamFormatError(`expedia propertyInfo ${id} has no name`);
  const w = new FieldWarnings(PLATFORM);
  const address = dig(json, 'summary', 'location', 'address');
  const coords = dig(json, 'summary', 'location', 'coordinates');
  const rating = dig(json, 'summary', 'overview', 'propertyRating');
  const stars = dig(rating, 'icon', 'id') === 'star' ? num(dig(rating, 'rating')) : null;
  const score = /^(\d{1,2}(?:\.\d)?)\/10\b/.exec(str(dig(json, 'reviewInfo', 'summary', 'overallScoreWithDescriptionA11y', 'value')) ?? '');
  const count = /\b(\d[\d,]*) reviews?\b/.exec(str(dig(json, 'reviewInfo', 'summary', 'propertyReviewCountDetails', 'shortDescription')) ?? '');
  const gallery = dig(json, 'propertyGallery', 'images');
  const images = (Array.isArray(gallery) ? gallery : []).map((g) => str(dig(g, 'image', 'url'))).filter((u): u is string => u !== null && u.startsWith('https://'));
  const countryCode = str(dig(address, 'countryCode'));
  return {
    value: {
      id: compositeId(PLATFORM, id),
      platform: PLATFORM,
      platformListingId: id,
      name,
      propertyType: (w.missing('propertyType', 'propertyInfo states no property type; reported as "other"'), 'other'),
      location: {
        lat: num(dig(coords, 'latitude')) ?? w.missing('location.lat'),
        lng: num(dig(coords, 'longitude')) ?? w.missing('location.lng'),
        city: str(dig(address, 'city')) ?? w.missing('location.city'),
        region: str(dig(address, 'province')) ?? w.missing('location.region'),
        country: countryCode && /^[A-Z]{2}$/.test(countryCode) ? countryCode : w.missing('location.country', `the record gives the alpha-3 code ${countryCode ?? '(none)'}`),
      },
      starRating: stars !== null && stars > 0 && stars <= 5 ? stars : w.missing('starRating'),
      guestRating: score ? Number(score[1]) : w.missing('guestRating', 'no "N/10" score'),
      ratingScale: RATING_SCALE[PLATFORM],
      reviewCount: count ? Number(count[1]!.replace(/,/g, '')) : w.missing('reviewCount', 'no "N reviews" count'),
      maxOccupancy: w.missing('maxOccupancy', 'propertyInfo states no occupancy'),
      bedrooms: w.missing('bedrooms', 'propertyInfo states no rooms'),
      bathrooms: w.missing('bathrooms', 'propertyInfo states no rooms'),
      amenities: amenitiesOf(json, w),
      images: images.length ? images : w.missing('images'),
      host: w.missing('host', 'propertyInfo names no host'),
      price: null,
    },
    warnings: w.list,
  };
}
