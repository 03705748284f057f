import { compositeId } from '../../../domain/platforms.js';
import type { Property, StayPrice } from '../../../domain/model/property.js';
import { daysBetween } from '../../../domain/dates.js';
import { dig, num, str, type FieldWarnings } from '../parse-support.js';
import { parseDisplayPrice } from './display-price.js';
import { missingPayload } from './graphql.js';
import { listingUrl, nativeIdFromRelay } from './ids.js';
import { ratingAndCount, ratingFromA11y } from './money.js';
import { propertyTypeOf, typeAndPlace } from './taxonomy.js';

/** What a search card is read against: the requested currency and, for a dated search, the stay. */
export interface SearchContext {
  currency: string;
  siteUrl: string;
  stay: { checkIn: string; checkOut: string; adults: number; children: number } | null;
}

export interface SearchPage {
  items: Property[];
  /** Results in the page, including any that could not be read. */
  resultCount: number;
  /** Airbnb's own page cursors (`paginationInfo.pageCursors`), first page first. */
  pageCursors: string[];
}

function cardName(r: unknown): string | null {
  return str(dig(r, 'demandStayListing', 'description', 'name', 'localizedStringWithTranslationPreference')) ?? str(dig(r, 'nameLocalized', 'localizedStringWithTranslationPreference'));
}

/** The card's price, only for a dated search and only when the card is for exactly that stay. */
export function parseCardPrice(r: unknown, id: string, ctx: SearchContext, w: FieldWarnings): StayPrice | null {
  const stay = ctx.stay;
  if (!stay) return null;
  const o = dig(r, 'listingParamOverrides');
  const checkin = str(dig(o, 'checkin'));
  const checkout = str(dig(o, 'checkout'));
  if (checkin !== stay.checkIn || checkout !== stay.checkOut) {
    w.add('price_other_dates', `Some airbnb results were priced for other dates (listing ${id}: ${checkin ?? '?'} to ${checkout ?? '?'}); their price is null.`);
    return null;
  }
  const adults = num(dig(o, 'adults'));
  const children = num(dig(o, 'children'));
  if ((adults !== null && adults !== stay.adults) || (children !== null && children !== stay.children)) {
    w.add('price_other_occupancy', `Some airbnb results were priced for another party size (listing ${id}); their price is null.`);
    return null;
  }
  return parseDisplayPrice(dig(r, 'structuredDisplayPrice'), { currency: ctx.currency, nights: daysBetween(stay.checkIn, stay.checkOut) }, w, `airbnb listing ${id}`);
}

/** One `StaySearchResult` card; null (with a warning) when its listing id cannot be read. */
export function parseSearchResult(r: unknown, ctx: SearchContext, w: FieldWarnings): Property | null {
  const id = nativeIdFromRelay(dig(r, 'demandStayListing', 'id'));
  if (id === null) {
    w.add('result_skipped', 'An airbnb search result without a readable listing id was left out.');
    return null;
  }
  // Homes: title "Apartment in <place>", name in the listing description. Hotels: title is the
  // hotel's name, subtitle "Hotel in <place>".
  const homeLine = typeAndPlace(dig(r, 'title'));
  const hotelLine = homeLine ? null : typeAndPlace(dig(r, 'subtitle'));
  const name = hotelLine ? str(dig(r, 'title')) : cardName(r) ?? str(dig(r, 'title'));
  if (name === null) {
    w.add('result_skipped', `An airbnb search result without a name (listing ${id}) was left out.`);
    return null;
  }
  const typeLabel = (homeLine ?? hotelLine)?.type ?? null;
  const propertyType = typeLabel === null ? null : propertyTypeOf(typeLabel);
  if (propertyType === null) w.missing('propertyType', 'a search result did not say what kind of place it is; reported as other');

  let { rating, count } = ratingAndCount(dig(r, 'avgRatingLocalized'));
  if (rating === null) ({ rating, count } = ratingFromA11y(dig(r, 'avgRatingA11yLabel')));
  if (rating === null) w.missing('guestRating', 'a search result shows no average rating (new listing or unreadable)');
  if (count === null) w.missing('reviewCount', 'a search result shows no review count');

  const pictures = dig(r, 'contextualPictures');
  const images = Array.isArray(pictures) ? pictures.map((p) => str(dig(p, 'picture'))).filter((u): u is string => u !== null) : null;
  const coordinate = dig(r, 'demandStayListing', 'location', 'coordinate');
  const lat = num(dig(coordinate, 'latitude'));
  const lng = num(dig(coordinate, 'longitude'));
  if (lat === null || lng === null) w.missing('location', 'a search result has no coordinates');

  return {
    id: compositeId('airbnb', id),
    platform: 'airbnb',
    platformListingId: id,
    url: listingUrl(ctx.siteUrl, id),
    name,
    propertyType: propertyType ?? 'other',
    location: {
      lat,
      lng,
      city: w.missing('location.city', 'airbnb search results name a neighbourhood, not the city'),
      region: w.missing('location.region', 'not in airbnb search results'),
      country: w.missing('location.country', 'not in airbnb search results'),
    },
    starRating: null, // Airbnb has no hotel classification; avgRating is the guest rating
    guestRating: rating,
    ratingScale: 5,
    reviewCount: count,
    maxOccupancy: w.missing('maxOccupancy', 'not in airbnb search results (see the listing detail)'),
    bedrooms: w.missing('bedrooms', 'not in airbnb search results (see the listing detail)'),
    bathrooms: w.missing('bathrooms', 'not in airbnb search results (see the listing detail)'),
    amenities: w.missing('amenities', 'not in airbnb search results (see the listing detail)'),
    images: images ?? w.missing('images'),
    host: w.missing('host', 'airbnb search results do not name the host'),
    price: parseCardPrice(r, id, ctx, w),
  };
}

/** The raw results of a `StaysSearch` page (empty when there are none) and its page cursors. */
export function searchResultsOf(json: unknown): { results: unknown[]; pageCursors: string[] } {
  const results = dig(json, 'data', 'presentation', 'staysSearch', 'results');
  const list = dig(results, 'searchResults');
  const cursors = dig(results, 'paginationInfo', 'pageCursors');
  return {
    results: Array.isArray(list) ? list : [],
    pageCursors: Array.isArray(cursors) ? cursors.filter((c): c is string => typeof c === 'string') : [],
  };
}

/** A `StaysSearch` response page. Throws a failed leg when it carries no results container. */
export function parseSearchPage(json: unknown, ctx: SearchContext, w: FieldWarnings): SearchPage {
  if (!Array.isArray(dig(json, 'data', 'presentation', 'staysSearch', 'results', 'searchResults'))) {
    missingPayload(json, 'search'); // throws unless airbnb said "not found", which for a search is no results
  }
  const { results, pageCursors } = searchResultsOf(json);
  return {
    items: results.map((r) => parseSearchResult(r, ctx, w)).filter((p): p is Property => p !== null),
    resultCount: results.length,
    pageCursors,
  };
}
