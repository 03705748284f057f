import type { Property } from '../../../domain/model/property.js';
import { compositeId, RATING_SCALE } from '../../../domain/platforms.js';
import { LegFailure, UpstreamFormatError } from '../../../domain/ports/platform.js';
import { dig, FieldWarnings, num, str } from '../parse-support.js';
import { pageUrl } from './ids.js';
import { listingReviewSummary } from '../../../domain/reviews/summary.js';

/**
 * A Booking.com hotel page (`/hotel/<cc>/<slug>.html`) read from its schema.org JSON-LD, the
 * `<script type="application/ld+json">` block the page carries, in the shape of the recorded
 * blocks (../shared/upstream-samples/booking/hotel-page-jsonld-*.json): name, url, description,
 * aggregateRating, address, image, priceRange, hasMap. What the block says is read as it says it:
 * - `@type` is "Hotel" on every property page (hostels included): it is not a property type;
 * - `addressLocality` holds the street, not the city; the city is not stated on its own;
 * - `addressCountry` is a country name; the ISO code is the page's own `<cc>`;
 * - coordinates exist only as the centre of the `hasMap` static map, Booking.com's own pin;
 * - `priceRange` is a "from" price for unnamed dates, never a stay price.
 * No stars, occupancy, rooms, facilities, host or gallery: null with a warning each; the
 * reviewSummary is aggregateRating's score and total, with no histogram, categories or topics.
 */

const LD_JSON = /<script[^>]*type=["']application\/ld\+json["'][^>]*>([\s\S]*?)<\/script>/gi;
const HOTEL_TYPES = new Set(['Hotel', 'LodgingBusiness', 'Hostel', 'Motel', 'Resort', 'BedAndBreakfast', 'Campground', 'VacationRental', 'Apartment', 'House']);

/** The schema.org lodging object among the page's JSON-LD blocks (plain, in an array or in @graph). */
export function lodgingJsonLd(html: string): Record<string, unknown> | null {
  for (const m of html.matchAll(LD_JSON)) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(m[1]!.trim());
    } catch {
      continue;
    }
    const graph = dig(parsed, '@graph');
    const nodes = Array.isArray(parsed) ? parsed : Array.isArray(graph) ? graph : [parsed];
    for (const node of nodes) {
      const type = dig(node, '@type');
      const types = Array.isArray(type) ? type : [type];
      if (types.some((t) => typeof t === 'string' && HOTEL_TYPES.has(t))) return node as Record<string, unknown>;
    }
  }
  return null;
}

/** "<cc>/<slug>" of a Booking.com hotel page URL (any language variant), else null. */
function pageOfUrl(url: string | null): string | null {
  if (url === null) return null;
  try {
    const u = new URL(url);
    if (!/(^|\.)booking\.com$/.test(u.hostname)) return null;
    const m = /^\/hotel\/([a-z]{2})\/([a-z0-9][a-z0-9-]*?)(?:\.[a-z]{2}(?:-[a-z]{2})?)?\.html$/.exec(u.pathname);
    return m ? `${m[1]}/${m[2]}` : null;
  } catch {
    return null;
  }
}

/** The static map's centre, when it is a point on Earth (`center=-37.8258628,144.9575897`). */
function mapCentre(hasMap: string | null): { lat: number; lng: number } | null {
  if (hasMap === null) return null;
  let centre: string | null;
  try {
    centre = new URL(hasMap).searchParams.get('center');
  } catch {
    return null;
  }
  const m = /^(-?\d{1,2}(?:\.\d+)?),(-?\d{1,3}(?:\.\d+)?)$/.exec(centre ?? '');
  if (!m) return null;
  const [lat, lng] = [Number(m[1]), Number(m[2])];
  return Math.abs(lat) <= 90 && Math.abs(lng) <= 180 ? { lat, lng } : null;
}

export interface HotelPageRef {
  /** The listing id as asked for (hotel id or "<cc>/<slug>"). */
  listingId: string;
  countryCode: string;
  pageName: string;
}

/**
 * The listing of one hotel page. A page without a lodging JSON-LD block fails the leg with that
 * reason (a format change); a block about another page is another property's data and is refused.
 */
export function parseHotelPage(html: string, ref: HotelPageRef): { value: Property; warnings: FieldWarnings['list'] } {
  const ld = lodgingJsonLd(html);
  if (ld === null) throw new UpstreamFormatError(`booking's page ${ref.countryCode}/${ref.pageName} carries no schema.org Hotel JSON-LD block`);
  const page = pageOfUrl(str(ld.url));
  if (page !== null && page !== `${ref.countryCode}/${ref.pageName}`) throw new LegFailure('failed', `booking answered for listing ${page}, not ${ref.countryCode}/${ref.pageName}`);
  const name = str(ld.name);
  if (name === null) throw new UpstreamFormatError(`booking's JSON-LD for ${ref.countryCode}/${ref.pageName} has no name`);
  const w = new FieldWarnings('booking');
  const rating = dig(ld, 'aggregateRating');
  const best = num(dig(rating, 'bestRating'));
  const value = num(dig(rating, 'ratingValue'));
  const count = num(dig(rating, 'reviewCount'));
  const point = mapCentre(str(ld.hasMap));
  const image = str(ld.image) ?? str(dig(ld, 'image', 0)) ?? str(dig(ld, 'image', 'url'));
  const property: Property = {
    id: compositeId('booking', ref.listingId),
    platform: 'booking',
    platformListingId: ref.listingId,
    url: pageUrl(ref.countryCode, ref.pageName)!,
    name,
    propertyType: (w.missing('propertyType', 'the page\'s JSON-LD types every property "Hotel", hostels included; reported as "other"'), 'other'),
    location: {
      lat: point?.lat ?? w.missing('location.lat', 'the page shows no map point'),
      lng: point?.lng ?? w.missing('location.lng', 'the page shows no map point'),
      city: w.missing('location.city', "the page's JSON-LD puts the street in addressLocality and states no city on its own"),
      region: str(dig(ld, 'address', 'addressRegion')) ?? w.missing('location.region'),
      country: ref.countryCode.toUpperCase(),
    },
    starRating: w.missing('starRating', "the page's JSON-LD states no star class"),
    // Booking.com rates out of 10; a block on another scale is not reported as if it were.
    guestRating: value !== null && best === RATING_SCALE.booking && count !== 0 ? value : w.missing('guestRating', best !== null && best !== 10 ? `rated out of ${best}, not 10` : undefined),
    ratingScale: RATING_SCALE.booking,
    reviewCount: count !== null && Number.isInteger(count) && count >= 0 ? count : w.missing('reviewCount'),
    maxOccupancy: w.missing('maxOccupancy', "the page's JSON-LD states no occupancy"),
    bedrooms: w.missing('bedrooms', "the page's JSON-LD states no rooms"),
    bathrooms: w.missing('bathrooms', "the page's JSON-LD states no rooms"),
    amenities: w.missing('amenities', "the page's JSON-LD lists no facilities"),
    images: image !== null && /^https:\/\//.test(image) ? [image] : w.missing('images'),
    host: w.missing('host', 'Booking.com pages name no host'),
    price: null,
  };
  // The reviews' verdict as the page states it: aggregateRating's score and total only.
  const { guestRating: average, reviewCount: total } = property;
  const stated = average !== null && total !== null && total > 0 ? { count: total, average, histogram: null, categories: null, mentions: null } : null;
  const verdict = listingReviewSummary('booking', RATING_SCALE.booking, stated);
  return { value: { ...property, reviewSummary: verdict.summary }, warnings: [...w.list, ...verdict.warnings] };
}
