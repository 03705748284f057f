import { isFailed, runLegs, type LegOutcome, type LegSpec } from './fan-out.js';
import type { Warning } from '../model/common.js';
import type { Price } from '../model/price.js';
import type { Property, StayPrice } from '../model/property.js';
import type { Platform } from '../platforms.js';
import { assertListingIds } from '../listing-ids/id-shapes.js';
import type { Adapted, Occupancy } from '../ports/platform.js';
import { unknownTermsOf } from '../rates/warnings.js';
import { adapterFor, assertNotInPast, assertSomeLegSucceeded, listingNotFound, report, slot, type OperationEnv, type OperationResult } from './shared.js';

export interface ListingParams {
  platform: Platform;
  id: string;
  checkIn: string | null;
  checkOut: string | null;
  occupancy: Occupancy;
  currency: string;
}

function stayPriceOf(p: Price): StayPrice {
  return { currency: p.currency, basis: p.basis, nightlyPrice: p.nightlyPrice, totalPrice: p.totalPrice, nights: p.nights, fees: p.fees, offers: p.offers, context: p.context };
}

/**
 * spec 4.4: one normalised listing. The detail (24 h cache) and, with dates, the price (1 h cache)
 * are separate legs run together, so an embedded price is never older than a price quote's.
 */
export async function getListing(env: OperationEnv, params: ListingParams): Promise<OperationResult<Property>> {
  const { platform, id: listingId, currency } = params;
  const adapter = adapterFor(env, 'listing', platform);
  assertListingIds(platform, [listingId], 'id', env.keyEnv);
  if (params.checkIn) assertNotInPast(params.checkIn, 'checkIn', env.now);
  env.beforeUpstream('listing', { platforms: [platform], maxItems: 1 });
  const stay = params.checkIn && params.checkOut ? { checkIn: params.checkIn, checkOut: params.checkOut, occupancy: params.occupancy } : null;

  const detailReq = { listingId, currency, stay: null };
  const detailSpec: LegSpec<Adapted<Property> | null> = {
    platform,
    operation: 'listing',
    expectedMs: adapter.expectedMs?.('listing', detailReq),
    run: (signal) => adapter.listing!(detailReq, signal),
    count: (v) => (v ? 1 : 0),
    cache: slot(env, 'listing', { platform, listingId, currency }),
  };
  const priceReq = stay && adapter.price ? { listingId, currency, ...stay } : null;
  const priceSpec: LegSpec<Adapted<Price> | null> | null = priceReq && {
    platform,
    operation: 'price',
    expectedMs: adapter.expectedMs?.('price', priceReq),
    run: (signal) => adapter.price!(priceReq, signal),
    count: (v) => (v ? 1 : 0),
    cache: slot(env, 'price', { platform, ...priceReq }),
  };
  // Both legs in one run, so the async projection and the cache see the whole call.
  const specs = [detailSpec, ...(priceSpec ? [priceSpec] : [])] as LegSpec<Adapted<Property | Price> | null>[];
  const [detail, quote] = (await runLegs(specs, env)) as [LegOutcome<Adapted<Property> | null>, LegOutcome<Adapted<Price> | null> | undefined];
  assertSomeLegSucceeded([detail]);
  if (!detail.value) throw listingNotFound(platform, listingId, 'id');

  const warnings: Warning[] = [...detail.warnings, ...detail.value.warnings];
  let price: StayPrice | null = null;
  if (quote?.value) {
    price = stayPriceOf(quote.value.value);
    warnings.push(...quote.value.warnings);
    const unknownTerms = unknownTermsOf(platform, quote.value.value.offers, warnings);
    if (unknownTerms) warnings.push(unknownTerms);
  } else if (quote) {
    warnings.push(...quote.warnings, { code: 'price_unavailable', message: `No price could be had for these dates from ${platform}.`, platform });
  }
  const nearby = detail.value.value.nearby ?? null;
  // Issue 25 item 1: a platform whose listing names no places says so once, whichever adapter it is.
  if (nearby === null && !warnings.some((w) => w.code === 'field_unavailable' && w.message.startsWith('nearby:'))) {
    warnings.push({ code: 'field_unavailable', message: `nearby: ${platform}'s listing names no places nearby`, platform });
  }
  const reviewSummary = detail.value.value.reviewSummary ?? null;
  // Issue 25: the adapters say why a part is missing; a listing without any verdict says so once here.
  if (reviewSummary === null && !warnings.some((w) => w.code === 'field_unavailable' && w.message.startsWith('reviewSummary:'))) {
    warnings.push({ code: 'field_unavailable', message: `reviewSummary: ${platform}'s listing states no review total and rating`, platform });
  }
  return {
    operation: 'listing',
    data: { ...detail.value.value, price, nearby, reviewSummary },
    platforms: [platform],
    legs: [{ ...report(detail), cached: detail.cached && (quote?.cached ?? true) }],
    warnings,
    pagination: null,
    currency,
    partial: quote !== undefined && isFailed(quote.status),
  };
}
