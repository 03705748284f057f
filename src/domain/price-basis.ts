import type { Warning } from './model/common.js';
import type { Offer } from './model/price.js';
import type { PriceBasis } from './model/property.js';
import type { Platform } from './platforms.js';

/**
 * Issue 13 item 1: a price says what its total includes. These are the rules every adapter and
 * operation share, so the warning codes and the comparison order are written once.
 */

/** The warning a price of this basis carries; none for all-in. */
export function basisWarning(basis: PriceBasis, platform: Platform, subject: string): Warning | null {
  if (basis === 'before_taxes') {
    return { code: 'taxes_not_included', message: `${subject}: ${platform} states this total before taxes; taxes are not in totalPrice (fees.taxes is null).`, platform };
  }
  if (basis === 'unknown') {
    return { code: 'price_basis_unclear', message: `${subject}: ${platform} does not say whether this total includes taxes (fees.taxes is null).`, platform };
  }
  return null;
}

/** Order of preference when two bases are equally common: the all-in figure is the useful one. */
const PREFERENCE: Readonly<Record<PriceBasis, number>> = { all_in: 0, before_taxes: 1, unknown: 2 };

/** The most common basis among offers (all_in, then before_taxes, on a tie); null without offers. */
export function mostCommonBasis(offers: readonly Pick<Offer, 'basis'>[]): PriceBasis | null {
  const counts = new Map<PriceBasis, number>();
  for (const o of offers) counts.set(o.basis, (counts.get(o.basis) ?? 0) + 1);
  let best: PriceBasis | null = null;
  for (const [basis, n] of counts) {
    const bestN = best === null ? -1 : counts.get(best)!;
    if (n > bestN || (n === bestN && PREFERENCE[basis] < PREFERENCE[best!])) best = basis;
  }
  return best;
}
