import { addDays } from '../../../domain/dates.js';
import type { Occupancy } from '../../../domain/ports/platform.js';
import type { UpstreamRequest } from '../http/upstream.js';
import { isPlaceId } from '../../../domain/listing-ids/operation-ids.js';
import { isPropertyToken } from './guards.js';

/**
 * Requests in SerpApi's format: every call is `GET /search.json?engine=google_hotels&...` below
 * the configured base URL, with the account's `api_key` added here and nowhere else (it is never
 * logged or put in a message). Values travel in the query string, encoded by the HTTP client;
 * property tokens are checked against their base64url shape before they are sent.
 */

export const SERPAPI_PATH = '/search.json';
export const ENGINE = 'google_hotels';
/** Google's amenity and type labels are mapped from English (see amenities.ts). */
const LANGUAGE = 'en';

/** SerpApi `sort_by` values of the sorts Google itself offers (3: lowest price, 8: highest rating). */
export const UPSTREAM_SORT = { price_asc: 3, rating_desc: 8 } as const;

export interface Dates {
  checkIn: string;
  checkOut: string;
}

/**
 * SerpApi requires check-in and check-out on every google_hotels call. An undated search or a
 * listing without a stay sends tomorrow and the day after (UTC) and ignores the prices it gets.
 */
export function placeholderDates(now: Date): Dates {
  const today = now.toISOString().slice(0, 10);
  return { checkIn: addDays(today, 1), checkOut: addDays(today, 2) };
}

function common(apiKey: string, dates: Dates, occupancy: Occupancy, currency: string): Record<string, string | number> {
  const query: Record<string, string | number> = {
    engine: ENGINE,
    check_in_date: dates.checkIn,
    check_out_date: dates.checkOut,
    adults: occupancy.adults,
    children: occupancy.children,
    currency,
    hl: LANGUAGE,
  };
  if (occupancy.children > 0 && occupancy.childAges.length) query.children_ages = occupancy.childAges.join(',');
  query.api_key = apiKey;
  return query;
}

export interface SearchParams {
  q: string;
  dates: Dates;
  occupancy: Occupancy;
  currency: string;
  sortBy: number | null;
  pageToken: string | null;
}

export function searchRequest(apiKey: string, p: SearchParams): UpstreamRequest {
  const query: Record<string, string | number> = { ...common(apiKey, p.dates, p.occupancy, p.currency), q: p.q };
  if (p.sortBy !== null) query.sort_by = p.sortBy;
  if (p.pageToken !== null) query.next_page_token = p.pageToken;
  return { method: 'GET', path: SERPAPI_PATH, query };
}

/** Property details. SerpApi requires `q` even here and ignores it when a token is given. */
export function detailsRequest(apiKey: string, token: string, dates: Dates, occupancy: Occupancy, currency: string): UpstreamRequest {
  if (!isPropertyToken(token)) throw new RangeError('not a google property token');
  return { method: 'GET', path: SERPAPI_PATH, query: { ...common(apiKey, dates, occupancy, currency), q: token, property_token: token } };
}

export const MAPS_REVIEWS_ENGINE = 'google_maps_reviews';

/** SerpApi's google_maps_reviews `sort_by` for each review order the service offers. */
export const MAPS_REVIEW_SORT = { recent: 'newestFirst', rating_desc: 'ratingHigh', rating_asc: 'ratingLow' } as const;


/** One page of a place's Google Maps reviews; later pages follow SerpApi's `next_page_token`. */
export function mapsReviewsRequest(apiKey: string, placeId: string, sortBy: string, pageToken: string | null): UpstreamRequest {
  if (!isPlaceId(placeId)) throw new RangeError('not a google maps place id');
  const query: Record<string, string> = { engine: MAPS_REVIEWS_ENGINE, place_id: placeId, hl: LANGUAGE, sort_by: sortBy };
  if (pageToken !== null) query.next_page_token = pageToken;
  query.api_key = apiKey;
  return { method: 'GET', path: SERPAPI_PATH, query };
}
