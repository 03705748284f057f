import { roundToMinor } from '../currency.js';
import { runLeg } from './fan-out.js';
import { mostCommonBasis } from '../price-basis.js';
import type { PriceCompare } from '../model/price.js';
import { assertListingIds } from '../listing-ids/id-shapes.js';
import { ServiceError } from '../errors.js';
import type { Adapted, OfferSet, Occupancy } from '../ports/platform.js';
import { unknownTermsOf } from '../rates/warnings.js';
import { adapterFor, assertNotInPast, assertSomeLegSucceeded, listingNotFound, noResults, report, slot, type OperationEnv, type OperationResult } from './shared.js';

export interface PriceCompareParams {
  name: string | null;
  googleHotelId: string | null;
  location: string | null;
  checkIn: string;
  checkOut: string;
  occupancy: Occupancy;
  currency: string;
}

/** Median of the offer totals, computed here rather than trusted from upstream (spec 2.5). */
export function median(values: number[], currency: string): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const value = sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return roundToMinor(value, currency);
}

/** A name no property has (in the place given): a 404 naming `name`, never a similar property's price (spec 2.5). */
function nameNotFound(name: string, location: string | null): ServiceError {
  const where = location === null ? '' : ` in "${location}"`;
  return new ServiceError('listing_not_found', `No property named "${name}"${where} was found on google. Names match exactly (case, accents and punctuation aside); search for the property and send its name or googleHotelId.`, { param: 'name' });
}

/** spec 4.6: one property's offers across OTAs, resolved through the google backbone. */
export async function comparePrices(env: OperationEnv, params: PriceCompareParams): Promise<OperationResult<PriceCompare>> {
  const adapter = adapterFor(env, 'priceCompare', 'google');
  if (params.googleHotelId !== null) assertListingIds('google', [params.googleHotelId], 'googleHotelId', env.keyEnv);
  assertNotInPast(params.checkIn, 'checkIn', env.now);

  env.beforeUpstream('priceCompare', { platforms: ['google'], maxItems: 1 });
  const leg = await runLeg<Adapted<OfferSet> | null>(
    {
      platform: 'google',
      operation: 'priceCompare',
      expectedMs: adapter.expectedMs?.('priceCompare', params),
      runMs: adapter.runMs?.('priceCompare', params),
      run: (signal) => adapter.priceCompare!(params, signal),
      count: (v) => v?.value.offers.length ?? 0,
      cache: adapter.cacheable?.('priceCompare', params) === false ? undefined : slot(env, 'priceCompare', params),
    },
    env,
  );
  assertSomeLegSucceeded([leg]);
  if (leg.value === null || leg.value === undefined) {
    if (params.googleHotelId !== null) throw listingNotFound('google', params.googleHotelId, 'googleHotelId');
    throw nameNotFound(params.name ?? '', params.location);
  }
  const { property, googleHotelId, offers } = leg.value.value;
  // Only offers in the requested currency are compared; anything else would be a relabelled number.
  const comparable = offers.filter((o) => o.currency === params.currency).sort((a, b) => a.totalPrice - b.totalPrice);
  const warnings = [...leg.warnings, ...leg.value.warnings];
  if (comparable.length < offers.length) {
    warnings.push({ code: 'offers_dropped_currency', message: `${offers.length - comparable.length} offers were not in ${params.currency} and were left out.`, platform: 'google' });
  }
  if (comparable.length === 0) warnings.push(noResults('offers'));
  const unknownTerms = unknownTermsOf('google', comparable, warnings);
  if (unknownTerms) warnings.push(unknownTerms);
  // Totals of different bases are different numbers: min and median are over the most common
  // basis only, and the other offers are listed apart (issue 13).
  const basis = mostCommonBasis(comparable);
  const compared = comparable.filter((o) => o.basis === basis);
  const otherOffers = comparable.filter((o) => o.basis !== basis);
  if (otherOffers.length) {
    const kinds = [...new Set(otherOffers.map((o) => o.basis))].join(', ');
    warnings.push({
      code: 'offers_basis_mixed',
      message: `min and median are over the ${compared.length} offers priced ${basis}; ${otherOffers.length} offers priced ${kinds} are listed apart in otherOffers.`,
      platform: 'google',
    });
  }
  const totals = compared.map((o) => o.totalPrice);
  return {
    operation: 'priceCompare',
    data: {
      property,
      googleHotelId,
      checkIn: params.checkIn,
      checkOut: params.checkOut,
      currency: params.currency,
      basis,
      min: totals.length ? totals[0]! : null,
      median: median(totals, params.currency),
      offers: compared,
      otherOffers,
    },
    platforms: ['google'],
    legs: [{ ...report(leg, comparable.length), status: comparable.length ? 'ok' : 'empty' }],
    warnings,
    pagination: null,
    currency: params.currency,
    // The backbone reports when some OTAs' rates could not be fetched: fewer offers than exist.
    partial: warnings.some((w) => w.code === 'offers_incomplete'),
    // Issue 16: which property the name (or id) was matched to, so a wrong match is visible.
    resolved: { property: { name: property, address: leg.value.value.address ?? null, googleHotelId } },
  };
}
