import { runLeg } from './fan-out.js';
import type { Price } from '../model/price.js';
import type { Platform } from '../platforms.js';
import { assertListingIds } from '../listing-ids/id-shapes.js';
import type { Adapted, Occupancy } from '../ports/platform.js';
import { unknownTermsOf } from '../rates/warnings.js';
import { adapterFor, assertNotInPast, assertSomeLegSucceeded, listingNotFound, report, slot, type OperationEnv, type OperationResult } from './shared.js';

export interface PriceParams {
  platform: Platform;
  listingId: string;
  checkIn: string;
  checkOut: string;
  occupancy: Occupancy;
  currency: string;
}

/** spec 4.5: a real numeric price for this listing and stay, or a typed error; never another listing's price. */
export async function getPrice(env: OperationEnv, params: PriceParams): Promise<OperationResult<Price>> {
  const adapter = adapterFor(env, 'price', params.platform);
  assertListingIds(params.platform, [params.listingId], 'listingId', env.keyEnv);
  assertNotInPast(params.checkIn, 'checkIn', env.now);
  const { platform, ...req } = params;

  env.beforeUpstream('price', { platforms: [platform], maxItems: 1 });
  const leg = await runLeg<Adapted<Price> | null>(
    {
      platform,
      operation: 'price',
      expectedMs: adapter.expectedMs?.('price', req),
      run: (signal) => adapter.price!(req, signal),
      count: (v) => (v ? 1 : 0),
      cache: slot(env, 'price', params),
    },
    env,
  );
  assertSomeLegSucceeded([leg]);
  if (!leg.value) throw listingNotFound(platform, params.listingId);
  const warnings = [...leg.warnings, ...leg.value.warnings];
  const unknownTerms = unknownTermsOf(platform, leg.value.value.offers, warnings);
  if (unknownTerms) warnings.push(unknownTerms);

  return {
    operation: 'price',
    data: leg.value.value,
    platforms: [platform],
    legs: [report(leg)],
    warnings,
    pagination: null,
    currency: params.currency,
  };
}
