import { roundToMinor } from '../currency.js';
import type { Fees } from '../model/property.js';
import type { FeeItem, FeeKind } from '../model/rates.js';

/** Which summary field each kind of fee line adds to; resort and other lines are in none. */
const SUMMARY: Readonly<Record<FeeKind, 'cleaning' | 'service' | 'taxes' | null>> = {
  cleaning: 'cleaning',
  service: 'service',
  tax: 'taxes',
  city_tax: 'taxes',
  resort: null,
  other: null,
};

/**
 * Issue 25 item 3: fees.cleaning/service/taxes are derived from the lines, never stated twice.
 * A summary is null when no line of its kinds exists (the platform states no such fee), and the
 * exact sum of its lines, at the currency's minor unit, otherwise.
 */
export function feesFromItems(items: readonly FeeItem[], currency: string): Fees {
  const sums: Record<'cleaning' | 'service' | 'taxes', number | null> = { cleaning: null, service: null, taxes: null };
  for (const item of items) {
    const field = SUMMARY[item.kind];
    if (field !== null) sums[field] = roundToMinor((sums[field] ?? 0) + item.amount, currency);
  }
  return { ...sums, items: [...items] };
}

/** The fees of a price that states no line at all. */
export function noFees(): Fees {
  return { cleaning: null, service: null, taxes: null, items: [] };
}
