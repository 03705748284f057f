import { addDays, daysBetween, toDayNumber } from '../../../domain/dates.js';
import type { CalendarDay } from '../../../domain/model/availability.js';
import { hash32 } from './random.js';

/**
 * A listing's calendar: stays are booked in runs of a few days, decided per (listing, run), so
 * a date reads the same whatever window asks for it. minNights is 2 on Friday and Saturday
 * arrivals and the listing's own minimum otherwise.
 */
function isBooked(seed: string, date: string): boolean {
  const day = toDayNumber(date)!;
  const run = Math.floor((day + (hash32(seed) % 4)) / 4);
  return hash32(`${seed}:${run}`) % 100 < 38;
}

function minNightsOn(seed: string, date: string): number {
  const weekday = (toDayNumber(date)! + 4) % 7;
  const base = 1 + (hash32(`${seed}:min`) % 3);
  return weekday === 5 || weekday === 6 ? Math.max(base, 2) : base;
}

/** `priceOf`: the night's rate, for platforms whose calendar states one; null: none stated. */
export function calendar(seed: string, startDate: string, endDate: string, priceOf: ((date: string) => number) | null = null): CalendarDay[] {
  const days = daysBetween(startDate, endDate);
  const out: CalendarDay[] = [];
  for (let i = 0; i <= days; i++) {
    const date = addDays(startDate, i);
    const available = !isBooked(seed, date);
    const minNights = minNightsOn(seed, date);
    let freeRun = 0;
    while (freeRun < minNights && !isBooked(seed, addDays(date, freeRun))) freeRun++;
    out.push({
      date,
      available,
      minNights,
      checkIn: available,
      // A stay can end on a date only if the night before it was free.
      checkOut: !isBooked(seed, addDays(date, -1)),
      bookable: available && freeRun >= minNights,
      nightlyPrice: available && priceOf ? priceOf(date) : null,
    });
  }
  return out;
}
