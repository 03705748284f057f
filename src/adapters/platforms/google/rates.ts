import { roundToMinor } from '../../../domain/currency.js';
import type { Fees, StayPrice } from '../../../domain/model/property.js';
import { feesFromItems } from '../../../domain/rates/fees.js';
import { feePaymentUnknown } from '../../../domain/rates/warnings.js';
import type { Board } from '../../../domain/model/rates.js';
import { boardOf } from '../../../domain/rates/board-words.js';
import { refundableOf } from '../../../domain/rates/refund-words.js';
import { LegFailure } from '../../../domain/ports/platform.js';
import { dig, num, parseMoney, str, type FieldWarnings } from '../parse-support.js';

/**
 * Google's rates as SerpApi relays them. A rate block is
 * `{ lowest: "$1,102", extracted_lowest: 1102, before_taxes_fees: "$919", extracted_before_taxes_fees: 919 }`.
 * `lowest` is the price Google shows; where `before_taxes_fees` is stated beside it, `lowest` is
 * the same offer with taxes and fees. `total_rate` is for the whole stay, `rate_per_night` per night (and
 * rounded by Google), so totals come from `total_rate` only.
 */

/** An amount of a rate block: SerpApi's extracted number, else its printed text (any digit grouping). */
export function amountOf(rate: unknown, key: 'lowest' | 'before_taxes_fees', currency: string): number | null {
  const extracted = num(dig(rate, `extracted_${key}`));
  if (extracted !== null) return extracted >= 0 ? roundToMinor(extracted, currency) : null;
  const text = str(dig(rate, key));
  const money = text === null ? null : parseMoney(text, currency);
  if (money === null) return null;
  // Only an ISO code in the text is trusted: "$" alone also prints CA$, MX$ and others.
  const code = /\b([A-Z]{3})\b/.exec(text!)?.[1];
  if (code && money.currency === code && code !== currency) throw new LegFailure('failed', `google answered in ${code}, not ${currency}`);
  return money.amount;
}

/**
 * Google's taxes and fees as the one line it states: the all-in total less the before-taxes
 * figure, of kind other (Google does not say which taxes or fees), inside its displayed total.
 * Where it is paid Google does not say either: payAtProperty is null, with the warning saying so.
 */
export function lumpFees(total: number, before: number | null, currency: string, w: FieldWarnings): Fees {
  const lump = before === null ? 0 : roundToMinor(total - before, currency);
  if (lump > 0) w.once(feePaymentUnknown('google'));
  return feesFromItems(lump > 0 ? [{ kind: 'other', name: 'Taxes and fees', amount: lump, included: true, payAtProperty: null }] : [], currency);
}

/**
 * The stay price of an entry carrying `total_rate` (a search item, a property, an OTA offer).
 * totalPrice is Google's all-in total; nightlyPrice is the before-taxes total over the nights.
 * Google states taxes and fees only as one lump (total minus before-taxes), never split into the
 * cleaning/service/taxes of the schema, so fees stay null. Without a before-taxes figure, whether
 * the total includes taxes is not stated: the price is given with `price_basis_unclear`.
 */
export function stayPrice(entry: unknown, nights: number, currency: string, w: FieldWarnings, label: string): StayPrice | null {
  const rate = dig(entry, 'total_rate');
  const total = amountOf(rate, 'lowest', currency);
  if (total === null || nights < 1) return w.missing('price', 'google stated no total rate for this stay');
  const before = amountOf(rate, 'before_taxes_fees', currency);
  if (before === null && !w.list.some((x) => x.code === 'price_basis_unclear')) {
    w.add('price_basis_unclear', `google did not say whether its total includes taxes and fees (first: ${label}).`);
  }
  if (before !== null) feesCombined(w, label);
  const nightlyPrice = roundToMinor((before ?? total) / nights, currency);
  return { currency, basis: basisOf(before), nightlyPrice, totalPrice: total, nights, fees: lumpFees(total, before, currency, w) };
}

/** A total stated beside its before-taxes figure is all-in; a total alone does not say. */
export function basisOf(beforeTaxes: number | null): 'all_in' | 'unknown' {
  return beforeTaxes === null ? 'unknown' : 'all_in';
}

/** Once per answer: Google's taxes and fees are one lump, so the fee fields stay null. */
export function feesCombined(w: FieldWarnings, label: string): void {
  if (w.list.some((x) => x.code === 'price_fees_combined')) return;
  w.add('price_fees_combined', `google states taxes and fees only as one amount inside its all-in total (total minus before-taxes; one fees.items line of kind other), not split into fees.cleaning/service/taxes, which are null (first: ${label}).`);
}

export interface OtaRate {
  source: string;
  url: string;
  totalPrice: number;
  beforeTaxes: number | null;
  official: boolean;
  /** What the OTA's `remarks` state (issue 25): "Free cancellation", "Breakfast included"; null when they do not. */
  refundable: boolean | null;
  board: Board | null;
}

/** Terms an OTA's remarks state; the recorded answers carry only discount remarks, so null there. */
export function remarkTerms(entry: unknown): { refundable: boolean | null; board: Board | null } {
  const remarks = dig(entry, 'remarks');
  const text = Array.isArray(remarks) ? remarks.filter((r): r is string => typeof r === 'string').join(' | ') : '';
  return { refundable: refundableOf(text), board: boardOf(text) };
}

function httpUrl(value: unknown): string | null {
  const s = str(value);
  return s !== null && /^https?:\/\/[^\s]+$/i.test(s) ? s : null;
}

/**
 * The OTA rates of a property details answer: `prices[]` only. `featured_prices[]` are paid
 * placements (google.com/aclk links) repeating OTAs already in `prices[]`, so they are left out.
 * One rate per source (its lowest), in Google's order; rates stated for fewer guests than asked,
 * or without a source, link or total, are dropped and reported.
 */
export function otaRates(json: unknown, currency: string, guests: number, w: FieldWarnings): OtaRate[] {
  const entries = dig(json, 'prices');
  if (!Array.isArray(entries)) return [];
  const bySource = new Map<string, OtaRate>();
  let incomplete = 0;
  let fewerGuests = 0;
  for (const e of entries) {
    const source = str(dig(e, 'source'));
    const url = httpUrl(dig(e, 'link'));
    const totalPrice = amountOf(dig(e, 'total_rate'), 'lowest', currency);
    if (source === null || url === null || totalPrice === null) {
      incomplete++;
      continue;
    }
    const numGuests = num(dig(e, 'num_guests'));
    if (numGuests !== null && numGuests < guests) {
      fewerGuests++;
      continue;
    }
    const rate: OtaRate = { source, url, totalPrice, beforeTaxes: amountOf(dig(e, 'total_rate'), 'before_taxes_fees', currency), official: dig(e, 'official') === true, ...remarkTerms(e) };
    const key = source.toLowerCase();
    const seen = bySource.get(key);
    if (!seen || rate.totalPrice < seen.totalPrice) bySource.set(key, rate);
  }
  if (incomplete) w.missing('offers', `${incomplete} google rate(s) without a source, link or total were left out`);
  if (fewerGuests) w.add('offers_dropped_occupancy', `${fewerGuests} google rate(s) were for fewer guests than asked and were left out.`);
  return [...bySource.values()];
}
