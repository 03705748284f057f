import { LegFailure, UpstreamFormatError } from '../../../domain/ports/platform.js';
import { dig, FieldWarnings, str } from '../parse-support.js';
import { availabilityCalendarRequest, fullSearchRequest } from './client.js';
import type { BookingRef } from './ids.js';
import { parseCalendarAnswer } from './parse-availability.js';
import { hotelItem, parseSearchPage } from './parse-search.js';
import type { Fetch } from './search.js';

/**
 * Turning one id form into the other, each through an answer of Booking.com itself:
 * - hotel id -> page name: a search for that hotel (destType HOTEL) names its page and country;
 * - page name -> hotel id: the availability calendar of that page says which hotel it is.
 * null: Booking.com listed nothing for that hotel id.
 */
export interface PageKey {
  countryCode: string;
  pageName: string;
  /** Known when the caller named the hotel by id; the calendar must then answer for it. */
  hotelId: string | null;
}

const LOOKUP_OCCUPANCY = { adults: 2, children: 0, childAges: [] };

export async function pageOf(fetch: Fetch, ref: BookingRef): Promise<PageKey | null> {
  if (ref.kind === 'page') return { countryCode: ref.countryCode, pageName: ref.pageName, hotelId: null };
  const call = { where: { hotelId: ref.hotelId }, dates: null, occupancy: LOOKUP_OCCUPANCY, rooms: 1, offset: 0, rows: 10, currency: 'USD' };
  const item = hotelItem(parseSearchPage(await fetch(fullSearchRequest(call))), ref.hotelId);
  if (item === null) return null;
  const countryCode = str(dig(item, 'basicPropertyData', 'location', 'countryCode'))?.toLowerCase();
  const pageName = str(dig(item, 'basicPropertyData', 'pageName'));
  if (!countryCode || !/^[a-z]{2}$/.test(countryCode) || !pageName || !/^[a-z0-9][a-z0-9-]{0,200}$/.test(pageName)) {
    throw new UpstreamFormatError(`booking names no usable page for listing ${ref.hotelId}`);
  }
  return { countryCode, pageName, hotelId: String(ref.hotelId) };
}

export interface HotelKey {
  hotelId: number;
  countryCode: string | null;
}

/** `date`: any day the calendar may be asked about (today, or the stay's check-in). */
export async function hotelOf(fetch: Fetch, ref: BookingRef, date: string): Promise<HotelKey> {
  if (ref.kind === 'hotel') return { hotelId: ref.hotelId, countryCode: null };
  const req = availabilityCalendarRequest({ countryCode: ref.countryCode, pageName: ref.pageName, startDate: date, days: 1, adults: 2 });
  const { hotelId } = parseCalendarAnswer(await fetch(req), null, new FieldWarnings('booking'));
  if (hotelId === null) throw new UpstreamFormatError(`booking named no hotel id for ${ref.countryCode}/${ref.pageName}`);
  return { hotelId: Number(hotelId), countryCode: ref.countryCode };
}
