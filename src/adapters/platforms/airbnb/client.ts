import type { UpstreamRequest } from '../http/upstream.js';
import type { Occupancy, SearchQuery } from '../../../domain/ports/platform.js';
import type { Amenity } from '../../../domain/model/property.js';
import { assertNativeId, relayId } from './ids.js';
import { SEARCH_AMENITY_IDS } from './taxonomy.js';

/**
 * Requests in Airbnb's own format: persisted GraphQL queries POSTed to `/api/v3/<OperationName>`
 * with `operationName`, `locale` and `currency` in the query string and
 * `{ operationName, variables, extensions.persistedQuery }` as the body (the web client's shape).
 * Paths are relative to the configured base URL; native ids are validated before use and travel
 * only inside the JSON body (as relay ids where Airbnb expects them).
 */
export const OPERATION_NAMES = ['StaysSearch', 'StaysPdpSections', 'PdpAvailabilityCalendar', 'StaysPdpReviewsQuery'] as const;
export type OperationName = (typeof OPERATION_NAMES)[number];

export interface RequestOptions {
  locale: string;
  /** sha256 of each persisted query (they change when Airbnb redeploys); sent in `extensions`. */
  hashes: Partial<Record<OperationName, string>>;
  /** Also put the hash in the path (`/api/v3/<Op>/<hash>`), as the web client does. */
  hashInPath: boolean;
}

type RawParam = { filterName: string; filterValues: string[] };

function gql(op: OperationName, variables: unknown, currency: string, o: RequestOptions): UpstreamRequest {
  const hash = o.hashes[op] ?? '';
  return {
    method: 'POST',
    path: o.hashInPath && hash ? `/api/v3/${op}/${hash}` : `/api/v3/${op}`,
    query: { operationName: op, locale: o.locale, currency },
    body: { operationName: op, variables, extensions: { persistedQuery: { version: 1, sha256Hash: hash } } },
  };
}

const param = (filterName: string, ...values: (string | number)[]): RawParam => ({ filterName, filterValues: values.map(String) });

/** Airbnb counts children (2-12) and infants (under 2) apart. */
export function party(o: Occupancy): RawParam[] {
  const infants = o.childAges.filter((a) => a < 2).length;
  return [param('adults', o.adults), param('children', o.children - infants), param('infants', infants)];
}

const LAT_LNG = /^\s*(-?\d{1,2}(?:\.\d+)?)\s*,\s*(-?\d{1,3}(?:\.\d+)?)\s*$/;

/** A map box of ±`delta` degrees around a point (Airbnb's map-search parameters). */
export function mapBox(lat: number, lng: number, delta: number): RawParam[] {
  const f = (n: number) => n.toFixed(6);
  return [param('neLat', f(lat + delta)), param('neLng', f(lng + delta)), param('swLat', f(lat - delta)), param('swLng', f(lng - delta)), param('searchByMap', 'true')];
}

export function dates(checkIn: string | null, checkOut: string | null): RawParam[] {
  return checkIn && checkOut ? [param('checkin', checkIn), param('checkout', checkOut), param('datePickerType', 'calendar')] : [];
}

/** The raw parameters of a search: place, stay, party and the filters Airbnb applies itself. */
export function searchParams(q: SearchQuery, pageSize: number, amenities: readonly Amenity[]): RawParam[] {
  const point = LAT_LNG.exec(q.location);
  const place = point ? mapBox(Number(point[1]), Number(point[2]), 0.1) : [param('query', q.location.trim())];
  const ids = amenities.map((a) => SEARCH_AMENITY_IDS[a]).filter((n): n is number => n !== undefined);
  return [
    ...place,
    param('refinementPaths', '/homes'),
    param('itemsPerGrid', pageSize),
    ...dates(q.checkIn, q.checkOut),
    ...party(q.occupancy),
    ...(q.minBedrooms !== null ? [param('minBedrooms', q.minBedrooms)] : []),
    ...(ids.length ? [param('amenities', ...ids)] : []),
  ];
}

export function searchRequest(rawParams: RawParam[], cursor: string | null, currency: string, o: RequestOptions): UpstreamRequest {
  const request = { requestedPageType: 'STAYS_SEARCH', metadataOnly: false, searchType: cursor ? 'pagination' : 'filter_change', treatmentFlags: [], rawParams };
  return gql('StaysSearch', { staysSearchRequest: { ...request, ...(cursor ? { cursor } : {}) }, staysMapSearchRequestV2: request, isLeanTreatment: false }, currency, o);
}

export function listingRequest(listingId: string, currency: string, o: RequestOptions): UpstreamRequest {
  const variables = {
    id: relayId('StayListing', listingId),
    demandStayListingId: relayId('DemandStayListing', listingId),
    pdpSectionsRequest: { adults: '1', layouts: ['SIDEBAR', 'SINGLE_COLUMN'], preview: false, bypassTargetings: false, privateBooking: false },
  };
  return gql('StaysPdpSections', variables, currency, o);
}

/** Calendar months from startDate's month through endDate's month (a 365-day window spans at most 13). */
export function calendarRequest(listingId: string, startDate: string, endDate: string, o: RequestOptions): UpstreamRequest {
  const [y0, m0] = [Number(startDate.slice(0, 4)), Number(startDate.slice(5, 7))];
  const [y1, m1] = [Number(endDate.slice(0, 4)), Number(endDate.slice(5, 7))];
  const count = Math.min(13, Math.max(1, (y1 - y0) * 12 + (m1 - m0) + 1));
  return gql('PdpAvailabilityCalendar', { request: { count, listingId: assertNativeId(listingId), month: m0, year: y0 } }, 'USD', o);
}

export function reviewsRequest(listingId: string, offset: number, limit: number, o: RequestOptions): UpstreamRequest {
  const pdpReviewsRequest = {
    fieldSelector: 'for_p3_translation_only', forPreview: false, limit, first: limit, offset: String(offset), showingTranslationButton: false,
    sortingPreference: 'MOST_RECENT', numberOfAdults: '1', numberOfChildren: '0', numberOfInfants: '0', numberOfPets: '0', after: null,
  };
  return gql('StaysPdpReviewsQuery', { id: relayId('StayListing', listingId), pdpReviewsRequest }, 'USD', o);
}
