import { compositeId, RATING_SCALE } from '../../../domain/platforms.js';
import { listingReviewSummary } from '../../../domain/reviews/summary.js';
import { statedReviewSummary } from './review-summary.js';
import type { Property } from '../../../domain/model/property.js';
import { LegFailure, UpstreamFormatError } from '../../../domain/ports/platform.js';
import { dig, num, str, type FieldWarnings } from '../parse-support.js';
import { missingPayload } from './graphql.js';
import { listingUrl } from './ids.js';
import { amenitiesOf, countIn, countryCode, metadata, overviewTitles, photosOf, sbuiSection, section, sectionsOf, sharingFacts } from './pdp-facts.js';
import { propertyTypeOf } from './taxonomy.js';

type Place = Pick<Property['location'], 'city' | 'region' | 'country'>;

/** The listing id the response is about, from whichever of its several echoes is present. */
function answeredId(json: unknown, sections: unknown[]): string | null {
  const meta = metadata(json);
  const candidates = [
    dig(meta, 'loggingContext', 'eventDataLogging', 'listingId'),
    dig(meta, 'clientLoggingContext', 'productId'),
    dig(section(sections, 'TITLE_DEFAULT'), 'shareSave', 'entityId'),
    /\/rooms\/(\d+)/.exec(String(dig(meta, 'sharingConfig', 'pdpLink') ?? ''))?.[1],
  ];
  const found = candidates.map((c) => (typeof c === 'number' ? String(c) : str(c))).find((c) => c !== null && c !== undefined);
  return found ?? null;
}

/** "Lyon, Auvergne-Rhône-Alpes, France" → city, region, country code (English country names only). */
function placeOf(json: unknown, sections: unknown[]): Place | null {
  const loc = section(sections, 'LOCATION_PDP');
  const details = dig(loc, 'previewLocationDetails');
  const crumbs = dig(metadata(json), 'seoFeatures', 'breadcrumbDetails');
  const candidates = [
    dig(loc, 'subtitle'),
    ...(Array.isArray(details) ? details.map((d) => dig(d, 'title')) : []),
    ...(Array.isArray(crumbs) ? crumbs.map((c) => dig(c, 'searchText')) : []),
  ];
  for (const c of candidates) {
    const parts = (str(c) ?? '').split(',').map((p) => p.trim()).filter(Boolean);
    if (parts.length < 2) continue;
    const country = countryCode(parts[parts.length - 1]!);
    if (country === null) continue;
    return { city: parts.length >= 3 ? parts[parts.length - 3]! : parts[0]!, region: parts.length >= 3 ? parts[parts.length - 2]! : null, country };
  }
  return null;
}

function hostOf(sections: unknown[], json: unknown): Property['host'] {
  const card = dig(section(sections, 'MEET_YOUR_HOST'), 'cardData');
  const hostedBy = /^Hosted by (.+)$/.exec(str(dig(sbuiSection(json, 'HOST_OVERVIEW_DEFAULT'), 'title')) ?? '')?.[1] ?? null;
  const name = str(dig(card, 'name')) ?? hostedBy;
  const superhost = dig(card, 'isSuperhost') ?? dig(metadata(json), 'loggingContext', 'eventDataLogging', 'isSuperhost');
  if (name === null && typeof superhost !== 'boolean') return null;
  return { name, isSuperhost: typeof superhost === 'boolean' ? superhost : null };
}

/**
 * A `StaysPdpSections` response (listing detail) → Property, without a price (a quote is its own
 * operation). null when Airbnb says the listing does not exist; a failed leg when it answered for
 * another listing.
 */
export function parseListing(json: unknown, listingId: string, siteUrl: string, w: FieldWarnings): Property | null {
  const sections = sectionsOf(json);
  if (sections === null) return missingPayload(json, 'listing');
  const answered = answeredId(json, sections);
  if (answered !== null && answered !== listingId) throw new LegFailure('failed', `airbnb answered for listing ${answered}, not ${listingId}`);
  if (answered === null) w.add('listing_id_unverified', `airbnb did not echo the listing id; the answer is taken as listing ${listingId}.`);

  const meta = metadata(json);
  const sharing = dig(meta, 'sharingConfig');
  const logging = dig(meta, 'loggingContext', 'eventDataLogging');
  const reviews = section(sections, 'REVIEWS_DEFAULT');
  const name = str(dig(section(sections, 'TITLE_DEFAULT'), 'title')) ?? str(dig(section(sections, 'AVAILABILITY_CALENDAR_DEFAULT'), 'listingTitle'));
  if (name === null) throw new UpstreamFormatError(`airbnb listing ${listingId} came without a title`);

  const typeLabel = str(dig(sharing, 'propertyType')) ?? str(dig(sbuiSection(json, 'OVERVIEW_DEFAULT_V2'), 'title'));
  const propertyType = typeLabel === null ? null : propertyTypeOf(typeLabel);
  if (propertyType === null) w.missing('propertyType', `airbnb's type "${typeLabel ?? ''}" is not one we map; reported as other`);

  const loc = section(sections, 'LOCATION_PDP');
  const lat = num(dig(loc, 'lat')) ?? num(dig(logging, 'listingLat'));
  const lng = num(dig(loc, 'lng')) ?? num(dig(logging, 'listingLng'));
  if (lat === null || lng === null) w.missing('location', 'no coordinates in the listing');
  const place = placeOf(json, sections);
  const city = place?.city ?? str(dig(sharing, 'location')) ?? str(dig(section(sections, 'AVAILABILITY_CALENDAR_DEFAULT'), 'localizedLocation'));

  const facts = [...overviewTitles(json), ...sharingFacts(json)];
  const bookIt = section(sections, 'BOOK_IT_SIDEBAR');
  const amenitiesSection = section(sections, 'AMENITIES_DEFAULT');
  // The reviews' verdict from the same REVIEWS_DEFAULT section the reviews summary reads.
  const verdict = listingReviewSummary('airbnb', RATING_SCALE.airbnb, statedReviewSummary(json));
  for (const x of verdict.warnings) w.add(x.code, x.message);
  return {
    id: compositeId('airbnb', listingId),
    platform: 'airbnb',
    platformListingId: listingId,
    url: listingUrl(siteUrl, listingId),
    name,
    propertyType: propertyType ?? 'other',
    location: {
      lat,
      lng,
      city: city ?? w.missing('location.city'),
      region: place?.region ?? w.missing('location.region'),
      country: place?.country ?? w.missing('location.country', 'no place line naming a country (in English) was found'),
    },
    starRating: null, // Airbnb has no hotel classification; sharingConfig.starRating is the guest rating
    guestRating: num(dig(reviews, 'overallRating')) ?? num(dig(sharing, 'starRating')) ?? num(dig(logging, 'guestSatisfactionOverall')) ?? w.missing('guestRating'),
    ratingScale: 5,
    reviewCount: num(dig(reviews, 'overallCount')) ?? num(dig(sharing, 'reviewCount')) ?? num(dig(logging, 'visibleReviewCount')) ?? w.missing('reviewCount'),
    maxOccupancy: num(dig(sharing, 'personCapacity')) ?? num(dig(logging, 'personCapacity')) ?? countIn(facts, 'guest') ?? num(dig(bookIt, 'maxGuestCapacity')) ?? w.missing('maxOccupancy'),
    bedrooms: countIn(facts, 'bedroom') ?? w.missing('bedrooms'),
    bathrooms: countIn(facts, 'bath') ?? w.missing('bathrooms'),
    amenities: (amenitiesSection === undefined ? null : amenitiesOf(amenitiesSection)) ?? w.missing('amenities'),
    images: photosOf(sections) ?? w.missing('images'),
    host: hostOf(sections, json) ?? w.missing('host'),
    price: null,
    reviewSummary: verdict.summary,
  };
}
