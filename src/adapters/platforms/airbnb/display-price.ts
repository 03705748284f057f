import { roundToMinor } from '../../../domain/currency.js';
import type { FeeItem, FeeKind } from '../../../domain/model/rates.js';
import { feesFromItems } from '../../../domain/rates/fees.js';
import { feePaymentUnknown } from '../../../domain/rates/warnings.js';
import type { StayPrice } from '../../../domain/model/property.js';
import { dig, str, type FieldWarnings } from '../parse-support.js';
import { amountOf, isInCurrency } from './money.js';

/**
 * Airbnb's `StructuredDisplayPrice` (search cards; the same type backs the PDP's book-it box): a
 * primary line ("$2,245" qualified "total", rounded up to the whole unit) and an explanation whose
 * line items are the exact breakdown ("5 nights x $446.94", "Long stay discount", "Cleaning fee",
 * "Airbnb service fee", "Taxes", then "Total"). The price is built from the line items only when
 * they reconcile with each other and with the primary line; otherwise it is null with a
 * `price_basis_unclear` warning. Never guessed.
 */
export interface DisplayPriceContext {
  currency: string;
  nights: number;
}

interface Lines {
  base: number | null;
  statedNights: number | null;
  discounts: number;
  cleaning: number | null;
  service: number | null;
  taxes: number | null;
  combined: number | null;
  other: number;
  otherLabels: string[];
  total: number | null;
  /** Every fee and tax line as stated (issue 25), in Airbnb's order. */
  items: FeeItem[];
  /** The label of the total line ("Total", "Total before taxes"). */
  totalLabel: string | null;
  count: number;
}

const add = (a: number | null, b: number) => (a ?? 0) + b;

const CITY_TAX = /\b(city|tourist|occupancy|lodging)\b/i;

/**
 * A fee line as Airbnb prints it: inside the total it displays (included). Whether it is paid
 * with the booking or at the property the card does not say (null).
 */
function line(kind: FeeKind, name: string, amount: number): FeeItem {
  return { kind, name, amount, included: true, payAtProperty: null };
}

function lineItems(sdp: unknown): { typename: string; description: string; priceString: string }[] {
  const groups = dig(sdp, 'explanationData', 'priceDetails');
  if (!Array.isArray(groups)) return [];
  return groups.flatMap((g) => {
    const items = dig(g, 'items');
    if (!Array.isArray(items)) return []; // a DisplayPriceExplanationDisclaimer ("Classic studio") has none
    return items.flatMap((it) => {
      const description = str(dig(it, 'description'));
      const priceString = str(dig(it, 'priceString'));
      return description && priceString ? [{ typename: String(dig(it, '__typename') ?? ''), description, priceString }] : [];
    });
  });
}

/** Classifies the line items; null when one of them carries no currency or no readable amount. */
function classify(sdp: unknown, currency: string): Lines | null {
  const l: Lines = { base: null, statedNights: null, discounts: 0, cleaning: null, service: null, taxes: null, combined: null, other: 0, otherLabels: [], items: [], total: null, totalLabel: null, count: 0 };
  for (const item of lineItems(sdp)) {
    if (!isInCurrency(item.priceString, currency)) return null;
    const amount = amountOf(item.priceString, currency);
    if (amount === null) return null;
    const d = item.description;
    const nightsLine = /^(\d+)\s+nights?\s*[x×]/i.exec(d) ?? /[x×]\s*(\d+)\s+nights?$/i.exec(d);
    if (item.typename === 'HighlightExplanationLineItem' || /^total\b/i.test(d)) {
      l.total = amount;
      l.totalLabel = d;
      continue;
    }
    l.count++;
    if (nightsLine) (l.base = add(l.base, amount)), (l.statedNights = Number(nightsLine[1]));
    else if (amount < 0 || item.typename === 'DiscountedExplanationLineItem') l.discounts += amount;
    else if (/cleaning fee/i.test(d)) (l.cleaning = add(l.cleaning, amount)), l.items.push(line('cleaning', d, amount));
    else if (/service fee/i.test(d)) (l.service = add(l.service, amount)), l.items.push(line('service', d, amount));
    else if (/tax(es)?\s*(and|&)\s*fees/i.test(d)) (l.combined = add(l.combined, amount)), l.items.push(line('other', d, amount));
    else if (/\btax(es)?\b/i.test(d)) (l.taxes = add(l.taxes, amount)), l.items.push(line(CITY_TAX.test(d) ? 'city_tax' : 'tax', d, amount));
    else if (/resort fee/i.test(d)) (l.other += amount), l.items.push(line('resort', d, amount));
    else (l.other += amount), l.otherLabels.push(d), l.items.push(line('other', d, amount));
  }
  return l;
}

const BEFORE_TAXES = /\bbefore tax(es)?\b/i;

/** The primary line's amount when it is qualified as the stay total ("$2,245 total", "total before taxes"). */
function primaryTotal(sdp: unknown, currency: string): { amount: number; beforeTaxes: boolean } | null {
  const line = dig(sdp, 'primaryLine');
  const components = dig(line, 'orderedComponents');
  const parts = Array.isArray(components) ? components : [line];
  const qualifier = parts.map((c) => str(dig(c, 'qualifier'))).find(Boolean);
  const printed = parts.map((c) => str(dig(c, 'price')) ?? str(dig(c, 'discountedPrice'))).find(Boolean);
  if (!printed || !qualifier || !/^total( before tax(es)?)?$/i.test(qualifier) || !isInCurrency(printed, currency)) return null;
  const amount = amountOf(printed, currency);
  return amount === null ? null : { amount, beforeTaxes: BEFORE_TAXES.test(qualifier) };
}

export function parseDisplayPrice(sdp: unknown, basis: DisplayPriceContext, w: FieldWarnings, subject: string): StayPrice | null {
  const { currency, nights } = basis;
  const unclear = (why: string) => (w.add('price_basis_unclear', `${subject}: ${why}; no price is given rather than a guess.`), null);
  if (sdp === null || typeof sdp !== 'object') return w.missing('price', `${subject}: airbnb sent no price`);
  const l = classify(sdp, currency);
  if (l === null) return unclear('a price line names no currency or no amount');
  if (l.base === null) return unclear('the breakdown has no "N nights x rate" line');
  if (l.statedNights !== nights) return unclear(`the breakdown is for ${l.statedNights} nights, not ${nights}`);
  const sum = roundToMinor(l.base + l.discounts + (l.cleaning ?? 0) + (l.service ?? 0) + (l.taxes ?? 0) + (l.combined ?? 0) + l.other, currency);
  const primary = primaryTotal(sdp, currency);
  if (l.total !== null && Math.abs(l.total - sum) > 0.011 * l.count) return unclear(`the line items add up to ${sum}, not the stated total ${l.total}`);
  if (l.total === null && primary === null) return unclear('neither a "Total" line nor a total-qualified price is given');
  const total = l.total ?? sum;
  // The primary line is the total rounded up to a whole unit.
  if (primary !== null && (primary.amount < total - 0.011 || primary.amount - total >= 1)) return unclear(`the total ${total} does not match the displayed ${primary.amount}`);
  // Airbnb labels its total "Total" (what the guest pays) or, where taxes are added at checkout,
  // "Total before taxes": the label is the basis, whatever the card's other lines say.
  const beforeTaxes = BEFORE_TAXES.test(l.totalLabel ?? '') || primary?.beforeTaxes === true;
  if (beforeTaxes && (l.taxes !== null || l.combined !== null)) return unclear('the total is labelled before taxes yet lists taxes');
  if (beforeTaxes) {
    w.add('taxes_not_included', `${subject}: airbnb states this total before taxes; taxes are added at checkout and are not in totalPrice (fees.taxes is null).`);
  }

  if (l.combined !== null) {
    w.add('price_fees_combined', `${subject}: airbnb states taxes and fees as one amount (${l.combined}); it is in the total, not split into fees.taxes/fees.service.`);
  }
  if (l.otherLabels.length) {
    w.add('price_fee_unclassified', `${subject}: ${l.otherLabels.join(', ')} (${roundToMinor(l.other, currency)}) is in the total but is not a cleaning, service or tax amount.`);
  }
  if (l.items.some((i) => i.payAtProperty === null)) w.once(feePaymentUnknown('airbnb'));
  return {
    currency,
    basis: beforeTaxes ? 'before_taxes' : 'all_in',
    nightlyPrice: roundToMinor((l.base + l.discounts) / nights, currency),
    totalPrice: roundToMinor(total, currency),
    nights,
    // The summaries are the sums of the lines (issue 25 item 3).
    fees: feesFromItems(l.items.map((i) => ({ ...i, amount: roundToMinor(i.amount, currency) })), currency),
  };
}
