import { runLeg } from '../fan-out.js';
import type { Property } from '../model/property.js';
import type { Platform } from '../platforms.js';
import type { Adapted, Occupancy } from '../ports.js';
import { adapterFor, assertNotInPast, assertSomeLegSucceeded, listingNotFound, report, type OperationEnv, type OperationResult } from './shared.js';

export interface ListingParams {
  platform: Platform;
  id: string;
  checkIn: string | null;
  checkOut: string | null;
  occupancy: Occupancy;
  currency: string;
}

/** spec 4.4: one normalised listing; with dates, a price for them is embedded. */
export async function getListing(env: OperationEnv, params: ListingParams): Promise<OperationResult<Property>> {
  const adapter = adapterFor(env, 'listing', params.platform);
  if (params.checkIn) assertNotInPast(params.checkIn, 'checkIn', env.now);
  const stay = params.checkIn && params.checkOut ? { checkIn: params.checkIn, checkOut: params.checkOut, occupancy: params.occupancy } : null;

  env.beforeUpstream('listing', { platforms: [params.platform], maxItems: 1 });
  const leg = await runLeg<Adapted<Property> | null>(
    {
      platform: params.platform,
      run: (signal) => adapter.listing!({ listingId: params.id, currency: params.currency, stay }, signal),
      count: (v) => (v ? 1 : 0),
    },
    env.legDeadlineMs,
  );
  assertSomeLegSucceeded([leg]);
  if (!leg.value) throw listingNotFound(params.platform, params.id, 'id');

  return {
    operation: 'listing',
    data: leg.value.value,
    platforms: [params.platform],
    legs: [report(leg)],
    warnings: [...leg.warnings, ...leg.value.warnings],
    pagination: null,
    currency: params.currency,
  };
}
