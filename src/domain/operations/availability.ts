import { ServiceError } from '../errors.js';
import { daysBetween } from '../dates.js';
import { isFailed, runLegs } from './fan-out.js';
import type { AvailabilityItem, CalendarDay } from '../model/availability.js';
import type { CheapestStay, LegStatus, Warning } from '../model/common.js';
import { cheapestStays, MAX_CHEAPEST_STAYS, sortStays } from '../rates/cheapest-stays.js';
import type { Platform } from '../platforms.js';
import { assertListingIds } from '../listing-ids/id-shapes.js';
import type { Adapted } from '../ports/platform.js';
import { adapterFor, assertNotInPast, assertSomeLegSucceeded, listingNotFound, noResults, slot, type OperationEnv, type OperationResult } from './shared.js';

export const MAX_WINDOW_DAYS = 365;
export const MAX_BATCH_LISTINGS = 50;

export interface AvailabilityParams {
  platform: Platform;
  listingIds: string[];
  startDate: string;
  endDate: string;
  onlyAvailable: boolean;
  /** The currency of nightly prices (meta.currency). */
  currency: string;
  /** nights=N: also find the cheapest stays of exactly N nights (meta.cheapestStays); null: not asked. */
  nights: number | null;
  /** The input the ids came from (listingId, listingIds or url), named by a 400. */
  idParam: string;
}

/** A date a guest could book: `bookable` when the platform says, otherwise `available`. */
function isBookable(day: CalendarDay): boolean {
  return day.bookable ?? day.available;
}

/**
 * spec 4.3: day-by-day calendars for one listing or a batch on one platform. Each listing is
 * fetched on its own; a listing the platform does not know is dropped with a warning (404 when
 * none is known), and a listing whose fetch failed makes the call partial.
 */
export async function getAvailability(env: OperationEnv, params: AvailabilityParams): Promise<OperationResult<AvailabilityItem[]>> {
  const adapter = adapterFor(env, 'availability', params.platform);
  assertListingIds(params.platform, params.listingIds, params.idParam, env.keyEnv);
  assertNotInPast(params.startDate, 'startDate', env.now);
  const days = daysBetween(params.startDate, params.endDate);
  if (days > MAX_WINDOW_DAYS) {
    throw new ServiceError('invalid_request', `The window from startDate to endDate is ${days} days; the maximum is ${MAX_WINDOW_DAYS}.`, {
      subCode: 'window_too_long',
      param: 'endDate',
    });
  }
  const { platform, startDate, endDate, currency } = params;
  const listingIds = [...new Set(params.listingIds)];
  env.beforeUpstream('availability', { platforms: [platform], maxItems: listingIds.length, days });
  const legs = await runLegs<Adapted<CalendarDay[]> | null>(
    listingIds.map((listingId) => ({
      platform,
      operation: 'availability' as const,
      expectedMs: adapter.expectedMs?.('availability', { listingId, startDate, endDate, currency }),
      run: (signal) => adapter.availability!({ listingId, startDate, endDate, currency }, signal),
      // A window whose answer covers none of the requested days is `empty`: free (spec: empty calls cost 0).
      count: (v) => (v && v.value.length > 0 ? 1 : 0),
      cache: slot(env, 'availability', { platform, listingId, startDate, endDate, currency }),
    })),
    env,
  );
  assertSomeLegSucceeded(legs);

  const items: AvailabilityItem[] = [];
  const stays: CheapestStay[] = [];
  const warnings: Warning[] = [];
  let covered = 0;
  legs.forEach((leg, i) => {
    warnings.push(...leg.warnings);
    const listingId = listingIds[i]!;
    if (isFailed(leg.status)) return;
    if (!leg.value) {
      warnings.push({ code: 'listing_not_found', message: `Listing "${listingId}" was not found on ${platform}.`, platform });
      return;
    }
    warnings.push(...leg.value.warnings);
    const dates = params.onlyAvailable ? leg.value.value.filter(isBookable) : leg.value.value;
    // Billed on what the platform covered, not on what onlyAvailable kept.
    if (leg.value.value.length > 0) covered++;
    items.push({ platform, listingId, dates });
    // From the whole calendar, not what onlyAvailable kept: a stay needs its check-out day too.
    if (params.nights !== null) stays.push(...cheapestStays(listingId, leg.value.value, params.nights, currency));
  });
  const anyFailed = legs.some((l) => isFailed(l.status));
  if (items.length === 0 && !anyFailed) throw listingNotFound(platform, listingIds.join(','), listingIds.length > 1 ? 'listingIds' : 'listingId');
  if (items.length === 0) warnings.push(noResults('listings'));

  if (params.nights !== null && items.length > 0 && stays.length === 0) {
    warnings.push({ code: 'cheapest_stays_unavailable', message: `No stay of ${params.nights} night(s) in the window could be priced: the calendar allows none, or states no nightly prices for them.`, platform });
  }
  const failed = items.length > 0 ? undefined : legs.find((l) => isFailed(l.status))!;
  const status: LegStatus = covered > 0 ? 'ok' : items.length > 0 ? 'empty' : failed!.status;
  return {
    operation: 'availability',
    data: items,
    platforms: [platform],
    legs: [{ platform, status, count: covered, cached: legs.every((l) => l.cached), days, ...(failed?.error ? { error: failed.error } : {}) }],
    warnings,
    pagination: null,
    currency,
    partial: anyFailed,
    ...(params.nights !== null ? { cheapestStays: sortStays(stays).slice(0, MAX_CHEAPEST_STAYS) } : {}),
  };
}
