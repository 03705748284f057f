import { addDays, daysBetween } from '../../../domain/dates.js';
import type { CalendarDay } from '../../../domain/model/availability.js';
import type { Price } from '../../../domain/model/price.js';
import type { Property } from '../../../domain/model/property.js';
import type { Operation } from '../../../domain/platforms.js';
import { LegFailure, type Adapted, type PlatformAdapter, UpstreamFormatError } from '../../../domain/ports/platform.js';
import { UpstreamNotFound, type UpstreamClient } from '../http/upstream.js';
import { dig, FieldWarnings, str } from '../parse-support.js';
import { availabilityCalendarRequest, CALENDAR_MAX_DAYS, fullSearchRequest, hotelPageRequest } from './client.js';
import { parseHotelPage } from './parse-hotel-page.js';
import { hotelSearchUrl, pageUrl, parseBookingId } from './ids.js';
import { calendarDays, parseCalendarAnswer, type RawDay } from './parse-availability.js';
import { stayPriceOf } from './parse-price.js';
import { bookingOffers } from './parse-offers.js';
import { contextUnavailable } from '../../../domain/rates/warnings.js';
import { hotelItem, parseSearchPage } from './parse-search.js';
import { hotelOf, pageOf } from './resolve.js';
import { reviewsLeg } from './reviews.js';
import { searchLeg, type Fetch } from './search.js';

export interface BookingAdapterOptions {
  /** Today, for the id lookup that needs a calendar date (default: the system clock). */
  now?: () => Date;
  /** Search results per upstream page (default 25) and most read to filter or sort here (default 200). */
  searchPageSize?: number;
  maxSearchScan?: number;
  /** Reviews per upstream page (default 25) and most read to filter or order here (default 250). */
  reviewPageSize?: number;
  maxReviewScan?: number;
}

/**
 * Operations proven on recorded Booking.com answers (../shared/upstream-samples/booking):
 * - search: FullSearch `results[]` (Malta, dated, USD);
 * - availability: AvailabilityCalendar (hotel 501672);
 * - reviews: ReviewList `reviewCard[]` (30 cards);
 * - price: answered exactly from a dated FullSearch made for that hotel (destType HOTEL): the
 *   same result format as search, picked by hotel id.
 * - listing: the hotel page's schema.org JSON-LD (two recorded blocks: Melbourne in English and
 *   AUD, Marseille in French and EUR); a hotel id is first resolved to its page by a search for
 *   that hotel. The page's other data (facilities, photos, rooms) has no recorded format, so
 *   those fields are null with warnings.
 */
const OPERATIONS: ReadonlySet<Operation> = new Set<Operation>(['search', 'availability', 'reviews', 'price', 'listing']);

/** Runs an upstream call; "the platform says this does not exist" becomes null. */
async function orNotFound<T>(run: () => Promise<T | null>): Promise<T | null> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof UpstreamNotFound) return null;
    throw err;
  }
}

export function createBookingAdapter(client: UpstreamClient, options: BookingAdapterOptions = {}): PlatformAdapter {
  const now = options.now ?? (() => new Date());
  const searchLimits = { pageSize: options.searchPageSize ?? 25, maxScan: options.maxSearchScan ?? 200 };
  const reviewLimits = { pageSize: options.reviewPageSize ?? 25, maxScan: options.maxReviewScan ?? 250 };
  const fetcher = (signal: AbortSignal): Fetch => (req) => client.json(req, signal);

  return {
    platform: 'booking',
    operations: OPERATIONS,

    search: (req, signal) => searchLeg(fetcher(signal), req, searchLimits),

    listing: (req, signal) =>
      orNotFound(async (): Promise<Adapted<Property> | null> => {
        const ref = parseBookingId(req.listingId);
        if (!ref) return null;
        const fetch = fetcher(signal);
        const page = await pageOf(fetch, ref);
        if (!page) return null;
        const html = await fetch(hotelPageRequest(page.countryCode, page.pageName));
        if (typeof html !== 'string') throw new UpstreamFormatError(`booking's page ${page.countryCode}/${page.pageName} is not a web page`);
        return parseHotelPage(html, { listingId: req.listingId, countryCode: page.countryCode, pageName: page.pageName });
      }),

    availability: (req, signal) =>
      orNotFound(async (): Promise<Adapted<CalendarDay[]> | null> => {
        const ref = parseBookingId(req.listingId);
        if (!ref) return null;
        const fetch = fetcher(signal);
        const page = await pageOf(fetch, ref);
        if (!page) return null;
        const starts: string[] = [];
        for (let s = req.startDate; s <= req.endDate; s = addDays(s, CALENDAR_MAX_DAYS)) starts.push(s);
        const answers = await Promise.all(
          starts.map((s) => fetch(availabilityCalendarRequest({ ...page, startDate: s, days: Math.min(CALENDAR_MAX_DAYS, daysBetween(s, req.endDate) + 1), adults: 2, currency: req.currency }))),
        );
        const w = new FieldWarnings('booking');
        let expected = page.hotelId;
        const raw: RawDay[] = [];
        for (const json of answers) {
          const answer = parseCalendarAnswer(json, expected, w);
          expected ??= answer.hotelId;
          raw.push(...answer.days);
        }
        const days = calendarDays(raw, req.startDate, req.endDate, w, req.currency);
        return { value: days, warnings: w.list };
      }),

    price: (req, signal) =>
      orNotFound(async (): Promise<Adapted<Price> | null> => {
        const ref = parseBookingId(req.listingId);
        if (!ref) return null;
        const fetch = fetcher(signal);
        const { hotelId } = await hotelOf(fetch, ref, req.checkIn);
        const dates = { checkIn: req.checkIn, checkOut: req.checkOut };
        const call = { where: { hotelId }, dates, occupancy: req.occupancy, rooms: 1, offset: 0, rows: 10, currency: req.currency };
        const item = hotelItem(parseSearchPage(await fetch(fullSearchRequest(call))), hotelId);
        if (item === null) throw new LegFailure('failed', `booking offered no rate for listing ${req.listingId} from ${req.checkIn} to ${req.checkOut}`);
        const w = new FieldWarnings('booking');
        const nights = daysBetween(req.checkIn, req.checkOut);
        const stay = stayPriceOf(item, nights, req.currency, w);
        if (!stay) throw new LegFailure('failed', `booking has no price for listing ${req.listingId}: ${w.list.map((x) => x.message).join('; ')}`);
        const url = pageUrl(str(dig(item, 'basicPropertyData', 'location', 'countryCode')), str(dig(item, 'basicPropertyData', 'pageName'))) ?? hotelSearchUrl(String(hotelId));
        const { currency, basis, nightlyPrice, totalPrice, fees } = stay;
        const { offers, warnings } = bookingOffers(item, stay);
        return {
          value: { platform: 'booking', listingId: req.listingId, ...dates, currency, basis, nightlyPrice, totalPrice, fees, offers, context: null, nights, occupancy: req.occupancy, source: 'booking', url },
          warnings: [...w.list, ...warnings, contextUnavailable('booking')],
        };
      }),

    reviews: (req, signal) =>
      orNotFound(async () => {
        const ref = parseBookingId(req.listingId);
        if (!ref) return null;
        const fetch = fetcher(signal);
        const hotel = await hotelOf(fetch, ref, now().toISOString().slice(0, 10));
        return reviewsLeg(fetch, hotel, req, reviewLimits);
      }),
  };
}
