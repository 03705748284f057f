import type { Property } from '../../../domain/model/property.js';
import { compositeId, RATING_SCALE } from '../../../domain/platforms.js';
import { LegFailure, type Adapted, UpstreamFormatError } from '../../../domain/ports/platform.js';
import { dig, FieldWarnings, num, str } from '../parse-support.js';
import { pageUrl } from './ids.js';
import { ACCOMMODATION_TYPES, refineByName } from './mappings.js';

/**
 * Booking.com's mobile-API hotel record and photo list as a pass-through API serves them
 * (RapidAPI `booking-com` `/v1/hotels/data` and `/v1/hotels/photos`, recorded in
 * ../shared/upstream-samples/booking/rapidapi-*.json). Not served by the live adapter, which
 * talks to Booking.com itself: this third party's API needs its own host and key. The readers are
 * kept, tested on the recorded answers, for an adapter configured against that API, and they
 * apply the same rules as the served parsers:
 * - `review_score` arrives as a string ("6.8") and is read as the number it prints;
 * - `class` 0 is "no stars"; homes (`booking_home.is_booking_home`) carry Booking.com's quality
 *   rating, not stars, so their class is not reported as stars;
 * - facilities are bare ids (`hotel_facilities`), whose names need Booking.com's facility table,
 *   which is not recorded: amenities are null with a warning, never guessed from ids.
 */
export function parseHotelRecord(json: unknown, listingId: string): Adapted<Property> {
  const hotelId = num(dig(json, 'hotel_id'));
  if (hotelId === null) throw new UpstreamFormatError('booking hotel record has no hotel_id');
  if (String(hotelId) !== listingId) throw new LegFailure('failed', `booking answered for listing ${hotelId}, not ${listingId}`);
  const name = str(dig(json, 'name'));
  if (name === null) throw new UpstreamFormatError(`booking hotel record ${hotelId} has no name`);
  const w = new FieldWarnings('booking');
  const cc = str(dig(json, 'countrycode'))?.toLowerCase() ?? null;
  const page = /^https:\/\/www\.booking\.com\/hotel\/[a-z]{2}\/([a-z0-9-]+)\.html$/.exec(str(dig(json, 'url')) ?? '')?.[1] ?? null;
  const typeId = num(dig(json, 'hoteltype_id'));
  const mapped = typeId === null ? undefined : ACCOMMODATION_TYPES[typeId];
  const home = dig(json, 'booking_home', 'is_booking_home') === 1;
  const stars = num(dig(json, 'class'));
  const reviews = num(dig(json, 'review_nr'));
  const score = num(dig(json, 'review_score'));
  const photo = str(dig(json, 'main_photo_url'));
  return {
    value: {
      id: compositeId('booking', listingId),
      platform: 'booking',
      platformListingId: listingId,
      url: pageUrl(cc, page) ?? (w.missing('url'), `https://www.booking.com/searchresults.html?dest_type=hotel&dest_id=${hotelId}`),
      name,
      propertyType: mapped ? refineByName(typeId!, mapped, name) : (w.missing('propertyType', `hotel type ${typeId ?? '(none)'} is not mapped; reported as "other"`), 'other'),
      location: {
        lat: num(dig(json, 'location', 'latitude')) ?? w.missing('location.lat'),
        lng: num(dig(json, 'location', 'longitude')) ?? w.missing('location.lng'),
        city: str(dig(json, 'city')) ?? w.missing('location.city'),
        region: w.missing('location.region', 'the hotel record names no region'),
        country: cc && /^[a-z]{2}$/.test(cc) ? cc.toUpperCase() : w.missing('location.country'),
      },
      starRating: stars !== null && stars > 0 && !home && dig(json, 'class_is_estimated') !== 1 ? stars : null,
      guestRating: reviews === 0 ? null : (score ?? w.missing('guestRating')),
      ratingScale: RATING_SCALE.booking,
      reviewCount: reviews !== null && Number.isInteger(reviews) && reviews >= 0 ? reviews : w.missing('reviewCount'),
      maxOccupancy: w.missing('maxOccupancy', 'the hotel record states no occupancy'),
      bedrooms: w.missing('bedrooms', 'the hotel record states no rooms'),
      bathrooms: w.missing('bathrooms', 'the hotel record states no rooms'),
      amenities: w.missing('amenities', "facilities come as ids only, and Booking.com's facility table is not recorded"),
      images: photo !== null && photo.startsWith('https://') ? [photo] : w.missing('images'),
      host: w.missing('host', 'Booking.com names no host'),
      price: null,
    },
    warnings: w.list,
  };
}

/**
 * The `/v1/hotels/photos` list: the largest rendition of each photo (`url_max`, else `url_1440`),
 * its `k=` signature kept (the image host refuses the URL without it). The answer does not say
 * which hotel it is for, so it can only be read for a hotel the caller already named.
 */
export function parseHotelPhotos(json: unknown): Adapted<string[]> {
  if (!Array.isArray(json)) throw new UpstreamFormatError('booking photos answer is not a list');
  const w = new FieldWarnings('booking');
  const urls: string[] = [];
  let skipped = 0;
  for (const p of json) {
    const url = str(dig(p, 'url_max')) ?? str(dig(p, 'url_1440'));
    if (url !== null && url.startsWith('https://') && !urls.includes(url)) urls.push(url);
    else skipped++;
  }
  if (skipped) w.add('item_skipped', `${skipped} booking photo(s) without an https URL were left out.`);
  return { value: urls, warnings: w.list };
}
