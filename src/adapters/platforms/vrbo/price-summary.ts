import { LegFailure } from '../../../domain/ports/platform.js';
import { dig, parseMoney, str } from '../parse-support.js';

/**
 * A legacy SERP `priceSummary`: `{ formattedAmount: "$666", pricePeriodDescription: "avg/night",
 * priceTypeId: "UNKNOWN", edapEventJson: "{...\"eventcurrency\":\"USD\"...}" }`.
 *
 * This is read, never presented as a stay price: an "avg/night" figure from an undated search is
 * not the price of any stay, and even on a dated search the summary does not say whether fees and
 * taxes are in it (no dated sample exists). It serves to know the currency the platform answered in.
 */
export interface VrboPriceSummary {
  /** The amount as printed, parsed exactly and rounded to the currency's minor unit. */
  amount: number | null;
  /** ISO code the platform states (edapEventJson.eventcurrency, or a code printed in the amount). */
  currency: string | null;
  /** pricePeriodDescription, e.g. "avg/night". */
  period: string | null;
  priceTypeId: string | null;
}

function edapCurrency(json: string | null): string | null {
  if (json === null) return null;
  try {
    const c = (JSON.parse(json) as { eventcurrency?: unknown } | null)?.eventcurrency;
    return typeof c === 'string' && /^[A-Z]{3}$/.test(c) ? c : null;
  } catch {
    return null;
  }
}

/** null when there is no summary object at all. */
export function readPriceSummary(value: unknown, currencyHint: string): VrboPriceSummary | null {
  if (value === null || typeof value !== 'object') return null;
  const text = str(dig(value, 'formattedAmount'));
  const stated = edapCurrency(str(dig(value, 'edapEventJson')));
  const money = text === null ? null : parseMoney(text, stated ?? currencyHint);
  // A bare "$" is not a currency statement (USD, CAD, AUD and MXN all print it): only a printed ISO code counts.
  const printedCode = text === null ? undefined : /\b([A-Z]{3})\b/.exec(text)?.[1];
  const printed = printedCode !== undefined && money?.currency === printedCode ? printedCode : null;
  if (stated !== null && printed !== null && stated !== printed) {
    throw new LegFailure('failed', `vrbo price summary contradicts itself (${stated} vs ${printed})`);
  }
  return {
    amount: money?.amount ?? null,
    currency: stated ?? printed,
    period: str(dig(value, 'pricePeriodDescription')),
    priceTypeId: str(dig(value, 'priceTypeId')),
  };
}

/** An answer in another currency than asked for fails the leg: numbers are never relabelled. */
export function assertCurrency(answered: string | null, requested: string): void {
  if (answered !== null && answered !== requested) {
    throw new LegFailure('failed', `vrbo answered in ${answered}, not ${requested}`);
  }
}
