import type { Occupancy } from '../../../domain/ports/platform.js';
import { LegFailure, UpstreamFormatError } from '../../../domain/ports/platform.js';
import type { UpstreamRequest } from '../http/upstream.js';
import { dig, str } from '../parse-support.js';

/**
 * Booking.com's web GraphQL: one path, `/dml/graphql`, with the operation named in the body's
 * `operationName` (the replay server files recordings under that name). The query documents ask
 * only for the fields the parsers read; their shapes follow the recorded answers (FullSearch
 * results, AvailabilityCalendar, ReviewList cards).
 */
export const GRAPHQL_PATH = '/dml/graphql';
/** The most days AvailabilityCalendar answers for in one call. */
export const CALENDAR_MAX_DAYS = 61;

const PRICE_IRENE = `amountPerStay { amount amountUnformatted currency }`;

const FULL_SEARCH = `query FullSearch($input: SearchQueryInput!) {
  searchQueries { search(input: $input) { ... on SearchQueryOutput {
    pagination { nbResultsPerPage nbResultsTotal }
    results {
      basicPropertyData {
        id pageName ufi accommodationTypeId
        location { address city countryCode latitude longitude }
        photos { main { highResUrl { relativeUrl } highResJpegUrl { relativeUrl } } }
        reviewScore: reviews { score: totalScore reviewCount: reviewsCount }
        starRating { value symbol }
      }
      displayName { text }
      soldOutInfo { isSoldOut }
      blocks { blockId { roomId policyGroupId mealPlanId } finalPrice { amount currency } freeCancellationUntil }
      policies { showFreeCancellation showNoPrepayment }
      mealPlanIncluded { mealPlanType text }
      matchingUnitConfigurations { commonConfiguration { nbBedrooms nbBathrooms nbLivingrooms nbKitchens nbAllBeds unitTypeNames { translation } } }
      priceDisplayInfoIrene {
        displayPrice { copy { translation } ${PRICE_IRENE} }
        excludedCharges { excludeChargesList { chargeType chargeMode chargeInclusion ${PRICE_IRENE} } }
      }
    }
  } } }
}`;

const AVAILABILITY_CALENDAR = `query AvailabilityCalendar($input: AvailabilityCalendarQueryInput!) {
  availabilityCalendar(input: $input) {
    ... on AvailabilityCalendarQueryResult { hotelId days { checkin available minLengthOfStay avgPriceFormatted } }
    ... on AvailabilityCalendarQueryError { message }
  }
}`;

const REVIEW_LIST = `query ReviewList($input: ReviewListFrontendInput!) {
  reviewListFrontend(input: $input) {
    ... on ReviewListFrontendResult {
      reviewsCount
      reviewCard {
        reviewUrl reviewedDate reviewScore
        guestDetails { username anonymous countryCode guestTypeTranslation }
        bookingDetails { customerType checkinDate checkoutDate numNights roomType { id name } }
        textDetails { title positiveText negativeText lang }
        partnerReply { reply }
      }
    }
    ... on ReviewsFrontendError { statusCode message }
  }
}`;

function graphql(operationName: string, query: string, variables: unknown, params: Record<string, string> = {}): UpstreamRequest {
  return { method: 'POST', path: GRAPHQL_PATH, query: { lang: 'en-us', ...params }, body: { operationName, variables, extensions: {}, query } };
}

export interface StayDates {
  checkIn: string;
  checkOut: string;
}

export interface SearchCall {
  /** A place name (or "lat,lng" text) as typed, or one hotel by its numeric id. */
  where: { searchString: string } | { hotelId: number };
  dates: StayDates | null;
  occupancy: Occupancy;
  rooms: number;
  offset: number;
  rows: number;
  currency: string;
}

export function fullSearchRequest(c: SearchCall): UpstreamRequest {
  const location = 'hotelId' in c.where ? { destType: 'HOTEL', destId: c.where.hotelId } : { searchString: c.where.searchString };
  const input = {
    location,
    ...(c.dates ? { dates: { checkin: c.dates.checkIn, checkout: c.dates.checkOut } } : {}),
    nbRooms: c.rooms,
    nbAdults: c.occupancy.adults,
    nbChildren: c.occupancy.children,
    childrenAges: c.occupancy.childAges,
    doAvailabilityCheck: false,
    pagination: { rowsPerPage: c.rows, offset: c.offset },
    sorters: { selectedSorter: null },
    filters: {},
    travelPurpose: 2,
  };
  return graphql('FullSearch', FULL_SEARCH, { input }, c.currency !== undefined ? { selected_currency: c.currency } : undefined);
}

export interface CalendarCall {
  countryCode: string;
  pageName: string;
  startDate: string;
  days: number;
  adults: number;
  /** The currency its nightly prices are printed in; absent when only the hotel id is wanted. */
  currency?: string;
}

export function availabilityCalendarRequest(c: CalendarCall): UpstreamRequest {
  const input = {
    travelPurpose: 2,
    pagenameDetails: { countryCode: c.countryCode, pagename: c.pageName },
    searchConfig: { searchConfigDate: { startDate: c.startDate, amountOfDays: Math.min(c.days, CALENDAR_MAX_DAYS) }, nbAdults: c.adults, nbRooms: 1 },
  };
  return graphql('AvailabilityCalendar', AVAILABILITY_CALENDAR, { input }, c.currency !== undefined ? { selected_currency: c.currency } : {});
}

export interface ReviewCall {
  hotelId: number;
  countryCode: string | null;
  skip: number;
  limit: number;
  language: string | null;
}

export function reviewListRequest(c: ReviewCall): UpstreamRequest {
  const input = {
    hotelId: c.hotelId,
    ...(c.countryCode ? { hotelCountryCode: c.countryCode } : {}),
    // NEWEST_FIRST is the sorter recorded clients use; rating orders are applied by the adapter.
    sorter: 'NEWEST_FIRST',
    filters: { text: '', ...(c.language ? { languages: [c.language] } : {}) },
    skip: c.skip,
    limit: c.limit,
    upsortReviewUrl: '',
  };
  return graphql('ReviewList', REVIEW_LIST, { input });
}

/**
 * The `data` of a GraphQL answer. An answer with errors and no data is a failed leg; a field the
 * platform reports as an error object (`message` without the data) is one too.
 */
export function graphqlData(json: unknown): unknown {
  const data = dig(json, 'data');
  if (data === null || data === undefined || typeof data !== 'object') {
    const message = str(dig(json, 'errors', 0, 'message'));
    // An error the platform states is its answer; no data and no error is a shape we do not know.
    if (message) throw new LegFailure('failed', `booking answered without data: ${message}`);
    throw new UpstreamFormatError('booking answered without data');
  }
  return data;
}

/**
 * A hotel page, read for its JSON-LD (parse-hotel-page.ts). English, so the block's texts are; the
 * page's numbers do not depend on it. Page names are checked (ids.ts) before they get here.
 */
export function hotelPageRequest(countryCode: string, pageName: string): UpstreamRequest {
  return { method: 'GET', path: `/hotel/${countryCode}/${pageName}.html`, query: { lang: 'en-us' }, as: 'html' };
}
