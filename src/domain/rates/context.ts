import type { PriceContext, Verdict } from '../model/rates.js';
import { roundToMinor } from '../currency.js';

/**
 * Issue 25 item 5: where a nightly price falls in the platform's typical range for the property.
 * Within the range, both ends included, is typical.
 */
export function verdictOf(nightly: number, typicalLow: number, typicalHigh: number): Verdict {
  if (nightly < typicalLow) return 'low';
  if (nightly > typicalHigh) return 'high';
  return 'typical';
}

/**
 * The context of a stay's price: its all-in nightly figure (totalPrice over nights, what a guest
 * compares with a typical nightly rate) against the range. null when the range is not a range
 * (missing, negative or reversed): never a guessed one.
 */
export function priceContext(totalPrice: number, nights: number, range: { low: number; high: number } | null, source: string, currency: string): PriceContext | null {
  if (range === null || nights < 1 || !(range.low >= 0) || !(range.high >= range.low)) return null;
  const nightly = roundToMinor(totalPrice / nights, currency);
  return { typicalLow: range.low, typicalHigh: range.high, verdict: verdictOf(nightly, range.low, range.high), source };
}
