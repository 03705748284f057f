import { roundToMinor } from '../../../domain/currency.js';
import type { StayPrice } from '../../../domain/model/property.js';
import type { FeeItem } from '../../../domain/model/rates.js';
import { feesFromItems } from '../../../domain/rates/fees.js';
import { feePaymentUnknown } from '../../../domain/rates/warnings.js';
import { LegFailure } from '../../../domain/ports/platform.js';
import { dig, num, parseMoney, str, type FieldWarnings } from '../parse-support.js';
import { CHARGE_MODES, CHARGE_TYPES } from './mappings.js';

interface Amount {
  amount: number;
  currency: string | null;
}

/** A warning recorded once per answer, however many items share the problem. */
export function warnOnce(w: FieldWarnings, code: string, message: string): void {
  if (!w.list.some((x) => x.code === code && x.message === message)) w.add(code, message);
}

/**
 * An `amountPerStay` node: its unformatted number, else its printed amount in any digit grouping.
 * Its currency is the node's own `currency` code, or an ISO code printed in the amount; a symbol
 * alone ("$120") names no currency, so the amount then has none (and is no price).
 */
function amountOf(node: unknown, currencyHint: string): Amount | null {
  const printed = str(dig(node, 'amount'));
  const printedCode = printed ? (/\b([A-Z]{3})\b/.exec(printed)?.[1] ?? null) : null;
  const currency = str(dig(node, 'currency'))?.toUpperCase() ?? printedCode;
  const raw = num(dig(node, 'amountUnformatted'));
  if (raw !== null) return { amount: raw, currency };
  const money = printed ? parseMoney(printed, currency ?? currencyHint) : null;
  return money ? { amount: money.amount, currency } : null;
}

function assertCurrency(found: string, wanted: string): void {
  if (found !== wanted) throw new LegFailure('failed', `booking answered in ${found}, not ${wanted}`);
}

/**
 * The stay price of one FullSearch result (`priceDisplayInfoIrene`). Booking.com's display price
 * is the total for the stay (`amountPerStay`) with the INCLUDED charges (VAT) inside it; the
 * EXCLUDED charges (city tax, ...) are paid on top, so they are the fees and part of totalPrice.
 * nightlyPrice is the display price over the nights asked for (the item itself carries no dates).
 * Returns null with a warning when the item has no usable price; throws when it is in another
 * currency than the one asked for.
 */
export function stayPriceOf(item: unknown, nights: number, currency: string, w: FieldWarnings): StayPrice | null {
  if (dig(item, 'soldOutInfo', 'isSoldOut') === true) return w.missing('price', 'sold out for these dates');
  const info = dig(item, 'priceDisplayInfoIrene');
  const display = amountOf(dig(info, 'displayPrice', 'amountPerStay'), currency);
  if (!display) return w.missing('price', 'no stay price in the search result');
  if (display.currency === null) return w.missing('price', 'the stay price names no currency');
  assertCurrency(display.currency, currency);

  const items: FeeItem[] = [];
  const unknownTypes = new Set<string>();
  let extra = 0;
  const charges = dig(info, 'excludedCharges', 'excludeChargesList');
  if (!Array.isArray(charges)) {
    warnOnce(w, 'price_basis_unclear', 'booking: a search result does not list the charges excluded from its price; its total may lack them.');
  }
  for (const charge of Array.isArray(charges) ? charges : []) {
    const inclusion = dig(charge, 'chargeInclusion');
    if (inclusion !== 'EXCLUDED' && inclusion !== 'INCLUDED') continue;
    const excluded = inclusion === 'EXCLUDED';
    const a = amountOf(dig(charge, 'amountPerStay'), currency);
    if (!a || a.currency === null) {
      // An included charge is already in the price: only its line is lost. An excluded one is not.
      if (!excluded) {
        warnOnce(w, 'field_unavailable', 'fees.items: booking listed a charge included in its price without a readable amount; that line is left out.');
        continue;
      }
      warnOnce(w, 'price_basis_unclear', 'booking: an excluded charge has no readable amount or currency; no total is given for that stay.');
      return null;
    }
    assertCurrency(a.currency, currency);
    const value = roundToMinor(a.amount, currency);
    const type = num(dig(charge, 'chargeType'));
    const known = type === null ? undefined : CHARGE_TYPES[type];
    if (!known) unknownTypes.add(String(type ?? '?'));
    const mode = CHARGE_MODES[str(dig(charge, 'chargeMode')) ?? ''];
    const name = `${known?.name ?? `Charge type ${type ?? '?'}`}${mode ? ` (${mode})` : ''}`;
    // Excluded charges are paid on top of the displayed price; when and where, the card does not say.
    items.push({ kind: known?.kind ?? 'other', name, amount: value, included: !excluded, payAtProperty: null });
    if (excluded) extra += value;
  }
  if (unknownTypes.size > 0) {
    warnOnce(w, 'fee_uncategorised', `booking: charges of type ${[...unknownTypes].sort().join(', ')} are fee lines of kind other, in totalPrice but in no fee summary.`);
  }
  if (items.some((i) => i.payAtProperty === null)) w.once(feePaymentUnknown('booking'));
  const fees = feesFromItems(items, currency);
  const accommodation = roundToMinor(display.amount, currency);
  return {
    currency,
    // The display price plus every charge it excludes is what the guest pays: all-in. Without
    // the list of excluded charges, what is on top is not stated.
    basis: Array.isArray(charges) ? 'all_in' : 'unknown',
    nightlyPrice: roundToMinor(accommodation / nights, currency),
    totalPrice: roundToMinor(accommodation + extra, currency),
    nights,
    fees,
  };
}
