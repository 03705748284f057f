import type { SearchQuery } from '../../../domain/ports/platform.js';
import type { UpstreamRequest } from '../http/upstream.js';

/**
 * Requests in Vrbo's own format. The legacy SERP is one GraphQL endpoint, POST /serp/g, with the
 * operation named in the body (`operationName: "SearchRequestQuery"`); the replay server files its
 * answer under serp/g/SearchRequestQuery.json. Request variables mirror the legacy web client:
 * `request.{paging, filterVersion, coreFilters, dates?, filters, q}`. Only occupancy and dates are
 * sent as platform filters; the unified filters are applied after retrieval (search.ts), where
 * their meaning is exact. User text goes only into the JSON body, never into the path.
 */
export const SEARCH_PATH = '/serp/g';
export const SEARCH_OPERATION = 'SearchRequestQuery';

/** The fields the parser reads, and nothing else. */
const SEARCH_QUERY = `query SearchRequestQuery($request: SearchResultRequest!) {
  results: search(request: $request) {
    page pageSize pageCount resultCount fromRecord toRecord
    listings {
      listingId listingNumber propertyId detailPageUrl
      propertyMetadata { headline propertyName }
      geoCode { latitude longitude }
      averageRating reviewCount bedrooms sleeps propertyType
      bathrooms { full half toiletOnly }
      amenitiesBadges { id name }
      rankedBadges(rankingStrategy: SERP) { id name }
      images { c6_uri c9_uri }
      priceSummary { priceTypeId formattedAmount pricePeriodDescription edapEventJson }
    }
  }
}`;

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const MAX_LOCATION = 200;

export function searchRequest(q: SearchQuery, page: number, pageSize: number): UpstreamRequest {
  if (!Number.isInteger(page) || page < 1) throw new Error(`vrbo page must be a positive integer: ${page}`);
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 50) throw new Error(`vrbo page size must be 1 to 50: ${pageSize}`);
  const location = q.location.trim().slice(0, MAX_LOCATION);
  const dated = q.checkIn !== null && q.checkOut !== null && ISO_DATE.test(q.checkIn) && ISO_DATE.test(q.checkOut);
  return {
    method: 'POST',
    path: SEARCH_PATH,
    body: {
      operationName: SEARCH_OPERATION,
      variables: {
        request: {
          paging: { page, pageSize },
          filterVersion: '1',
          coreFilters: {
            adults: q.occupancy.adults,
            children: q.occupancy.children,
            pets: 0,
            minBedrooms: 0,
            maxBedrooms: null,
            minBathrooms: 0,
            maxBathrooms: null,
            minNightlyPrice: 0,
            maxNightlyPrice: null,
            minTotalPrice: null,
            maxTotalPrice: null,
          },
          ...(dated ? { dates: { arrivalDate: q.checkIn, departureDate: q.checkOut } } : {}),
          filters: [],
          q: location,
        },
      },
      query: SEARCH_QUERY,
    },
  };
}
