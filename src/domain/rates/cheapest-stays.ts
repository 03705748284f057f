import { addDays } from '../dates.js';
import { roundToMinor } from '../currency.js';
import type { CalendarDay } from '../model/availability.js';
import type { CheapestStay } from '../model/common.js';

export const MAX_CHEAPEST_STAYS = 5;
export const STAY_NIGHTS = { min: 1, max: 30 } as const;

/**
 * Issue 25 item 5: the cheapest stays of exactly `nights` nights a calendar allows, cheapest
 * first (earlier check-in on a tie), at most `max`. A stay counts only when the calendar says
 * it may be booked:
 * - its check-in day is available, check-in is not refused there (checkIn false) and the day is
 *   not unbookable (bookable false), and its minimum stay (minNights) is at most `nights`;
 * - every night of it is an available day of the calendar with a nightly price;
 * - its check-out day is in the calendar and check-out is not refused there (checkOut false).
 * A flag the platform leaves unknown (null) refuses nothing. Nothing is estimated: a night
 * without a price leaves the stay out.
 */
export function cheapestStays(listingId: string, days: readonly CalendarDay[], nights: number, currency: string, max = MAX_CHEAPEST_STAYS): CheapestStay[] {
  const byDate = new Map(days.map((d) => [d.date, d]));
  const stays: CheapestStay[] = [];
  for (const first of days) {
    if (!first.available || first.checkIn === false || first.bookable === false) continue;
    if (first.minNights !== null && first.minNights > nights) continue;
    const checkOut = addDays(first.date, nights);
    const last = byDate.get(checkOut);
    if (!last || last.checkOut === false) continue;
    let total = 0;
    let ok = true;
    for (let i = 0; i < nights && ok; i++) {
      const night = i === 0 ? first : byDate.get(addDays(first.date, i));
      if (!night || !night.available || night.nightlyPrice === null) ok = false;
      else total += night.nightlyPrice;
    }
    if (ok) stays.push({ listingId, checkIn: first.date, checkOut, totalPrice: roundToMinor(total, currency) });
  }
  return sortStays(stays).slice(0, max);
}

/** Cheapest first, then earlier check-in, then listing id: one order for one listing or a batch. */
export function sortStays(stays: CheapestStay[]): CheapestStay[] {
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return stays.sort((a, b) => a.totalPrice - b.totalPrice || cmp(a.checkIn, b.checkIn) || cmp(a.listingId, b.listingId));
}
