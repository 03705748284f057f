/** Calendar dates as YYYY-MM-DD strings, handled as whole UTC days so no time zone can shift them. */

const DAY_MS = 86_400_000;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Days since 1970-01-01, or null when the string is not a real calendar date. */
export function toDayNumber(date: string): number | null {
  const m = ISO_DATE.exec(date);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const ms = Date.UTC(y, mo - 1, d);
  const back = new Date(ms);
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d) return null;
  return ms / DAY_MS;
}

export function fromDayNumber(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

export function isIsoDate(date: string): boolean {
  return toDayNumber(date) !== null;
}

export function daysBetween(from: string, to: string): number {
  return (toDayNumber(to) ?? NaN) - (toDayNumber(from) ?? NaN);
}

export function addDays(date: string, days: number): string {
  return fromDayNumber((toDayNumber(date) ?? NaN) + days);
}

/**
 * The earliest date a client may ask for. A date is "in the past" only when it is past in every
 * time zone: the calendar in UTC-12 runs up to one day behind UTC, so yesterday (UTC) is allowed.
 */
export function earliestAllowedDay(now: Date): number {
  return Math.floor(now.getTime() / DAY_MS) - 1;
}

export function isInPast(date: string, now: Date): boolean {
  const day = toDayNumber(date);
  return day !== null && day < earliestAllowedDay(now);
}
