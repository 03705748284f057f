import { addDays, daysBetween, isIsoDate } from '../../../domain/dates.js';
import type { CalendarDay } from '../../../domain/model/availability.js';
import { LegFailure, UpstreamFormatError } from '../../../domain/ports/platform.js';
import { dig, num, parseMoney, str, type FieldWarnings } from '../parse-support.js';
import { nightlyPriceUnavailable } from '../../../domain/rates/warnings.js';
import { graphqlData } from './client.js';
import { warnOnce } from './parse-price.js';

export interface CalendarAnswer {
  /** The numeric hotel id Booking.com answered for. */
  hotelId: string | null;
  days: RawDay[];
}

export interface RawDay {
  date: string;
  available: boolean;
  /** minLengthOfStay when it is a real minimum (>= 1); 0 is sent on closed days. */
  minNights: number | null;
  /** avgPriceFormatted as printed ("US$120", "₹7.5K", "₹ 0"). */
  price: string | null;
}

/**
 * An AvailabilityCalendar answer: `data.availabilityCalendar.{hotelId, days[]}`. Each day is a
 * check-in date with `available`, `minLengthOfStay` and `avgPriceFormatted` (read by
 * nightlyPriceOf). Throws when Booking.com answered
 * for another hotel than `expectedHotelId`, or answered an error.
 */
export function parseCalendarAnswer(json: unknown, expectedHotelId: string | null, w: FieldWarnings): CalendarAnswer {
  const cal = dig(graphqlData(json), 'availabilityCalendar');
  const days = dig(cal, 'days');
  if (!Array.isArray(days)) {
    const message = str(dig(cal, 'message'));
    if (message) throw new LegFailure('failed', `booking answered no calendar: ${message}`);
    throw new UpstreamFormatError('booking answered without availabilityCalendar.days');
  }
  const id = num(dig(cal, 'hotelId'));
  const hotelId = id !== null && Number.isInteger(id) && id > 0 ? String(id) : null;
  if (expectedHotelId !== null && hotelId !== null && hotelId !== expectedHotelId) {
    throw new LegFailure('failed', `booking answered for listing ${hotelId}, not ${expectedHotelId}`);
  }
  const out: RawDay[] = [];
  for (const day of days) {
    const date = str(dig(day, 'checkin'));
    const available = dig(day, 'available');
    if (!date || !isIsoDate(date) || typeof available !== 'boolean') {
      warnOnce(w, 'field_unavailable', 'dates: a calendar day without a date or an availability flag was left out.');
      continue;
    }
    const min = num(dig(day, 'minLengthOfStay'));
    out.push({ date, available, minNights: min !== null && Number.isInteger(min) && min >= 1 ? min : null, price: str(dig(day, 'avgPriceFormatted')) });
  }
  return { hotelId, days: out };
}

/**
 * The calendar from startDate to endDate (inclusive), sorted (Booking.com sends days unsorted).
 * - checkIn: the calendar is one of check-in dates, so `available` says whether a stay may start.
 * - bookable: a stay of minLengthOfStay nights may start that day (Booking.com's `available`
 *   already honours the minimum); null when an available day states no minimum.
 * - checkOut: true when some available day's minimum stay ends on that date; otherwise unknown
 *   (null), since Booking.com states no departure rules.
 * - minNights: null on days that state none (closed days send 0).
 * Days Booking.com did not answer for are not invented; a warning says how many are missing.
 */
/**
 * Issue 25 item 5: a night's price from `avgPriceFormatted`, exactly as printed, in the currency
 * asked for. Booking.com also prints abbreviations ("₹7.5K", rounded to a hundred rupees): those
 * are not prices and give null, as do amounts naming no currency or another one, and the "₹ 0"
 * of closed days.
 */
export function nightlyPriceOf(printed: string | null, currency: string): number | null {
  if (printed === null) return null;
  const money = parseMoney(printed, currency);
  if (money === null || money.currency !== currency || money.amount <= 0) return null;
  return money.amount;
}

export function calendarDays(raw: RawDay[], startDate: string, endDate: string, w: FieldWarnings, currency: string): CalendarDay[] {
  const byDate = new Map<string, RawDay>();
  for (const d of raw) {
    const seen = byDate.get(d.date);
    if (seen && (seen.available !== d.available || seen.minNights !== d.minNights || seen.price !== d.price)) {
      warnOnce(w, 'calendar_conflict', `booking: the calendar answered ${d.date} twice, differently; the first answer is kept.`);
    }
    if (!seen) byDate.set(d.date, d);
  }
  // Departures come from every day answered, also those before the window.
  const departures = new Set<string>();
  for (const d of byDate.values()) if (d.available && d.minNights !== null) departures.add(addDays(d.date, d.minNights));
  const sorted = [...byDate.values()]
    .filter((d) => d.date >= startDate && d.date <= endDate)
    .sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));

  const asked = daysBetween(startDate, endDate) + 1;
  if (sorted.length < asked) {
    w.add('calendar_incomplete', `booking: the calendar answered ${sorted.length} of the ${asked} dates asked for; the others are left out.`);
  }
  if (sorted.some((d) => d.minNights === null)) w.missing('minNights', 'Booking.com states no minimum stay on closed dates');
  const prices = sorted.map((d) => (d.available ? nightlyPriceOf(d.price, currency) : null));
  const unpriced = sorted.filter((d, i) => d.available && prices[i] === null);
  if (unpriced.length > 0) {
    const sample = unpriced[0]!.price;
    w.list.push(nightlyPriceUnavailable('booking', `its calendar printed ${unpriced.length} available night(s) without an exact ${currency} price (first: ${sample === null ? 'none' : JSON.stringify(sample)}; abbreviated amounts such as "7.5K" are not prices)`));
  }
  return sorted.map((d, i) => ({
    date: d.date,
    available: d.available,
    minNights: d.minNights,
    checkIn: d.available,
    checkOut: departures.has(d.date) ? true : null,
    bookable: d.available ? (d.minNights === null ? null : true) : false,
    nightlyPrice: prices[i]!,
  }));
}
