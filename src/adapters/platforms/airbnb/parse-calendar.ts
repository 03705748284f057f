import { isIsoDate } from '../../../domain/dates.js';
import type { CalendarDay } from '../../../domain/model/availability.js';
import { LegFailure } from '../../../domain/ports/platform.js';
import { dig, num, str, type FieldWarnings } from '../parse-support.js';
import { missingPayload } from './graphql.js';
import { nightlyPriceUnavailable } from '../../../domain/rates/warnings.js';

const bool = (v: unknown): boolean | null => (typeof v === 'boolean' ? v : null);

/**
 * A `PdpAvailabilityCalendar` response → the days of [startDate, endDate] (both included), in date
 * order. `bookable: null` stays null (Airbnb does not say for those days); there is no per-day
 * price (`localPriceFormatted` is always null). null when Airbnb says the listing does not exist.
 */
export function parseCalendar(json: unknown, listingId: string, startDate: string, endDate: string, w: FieldWarnings): CalendarDay[] | null {
  const months = dig(json, 'data', 'merlin', 'pdpAvailabilityCalendar', 'calendarMonths');
  if (!Array.isArray(months)) return missingPayload(json, 'availability calendar');
  const byDate = new Map<string, CalendarDay>();
  let unreadable = 0;
  for (const month of months) {
    const answered = dig(month, 'listingId');
    const answeredId = typeof answered === 'number' ? String(answered) : str(answered);
    if (answeredId !== null && answeredId !== listingId) throw new LegFailure('failed', `airbnb answered for listing ${answeredId}, not ${listingId}`);
    const days = dig(month, 'days');
    if (!Array.isArray(days)) continue;
    for (const d of days) {
      const date = str(dig(d, 'calendarDate'));
      const available = bool(dig(d, 'available'));
      if (date === null || !isIsoDate(date) || available === null) {
        unreadable++;
        continue;
      }
      if (date < startDate || date > endDate) continue;
      byDate.set(date, {
        date,
        available,
        minNights: num(dig(d, 'minNights')),
        checkIn: bool(dig(d, 'availableForCheckin')),
        checkOut: bool(dig(d, 'availableForCheckout')),
        bookable: bool(dig(d, 'bookable')),
        // localPriceFormatted is null in every current answer: no price is stated per night.
        nightlyPrice: null,
      });
    }
  }
  if (unreadable > 0) w.add('days_unreadable', `${unreadable} day(s) of airbnb's calendar had no date or no availability and were left out.`);
  w.list.push(nightlyPriceUnavailable('airbnb', 'its calendar states no price per night (price.localPriceFormatted is null)'));
  return [...byDate.values()].sort((a, b) => (a.date < b.date ? -1 : 1));
}
