import { CURRENCY_MINOR_UNITS, roundToMinor } from '../../../domain/currency.js';
import { LegFailure } from '../../../domain/ports/platform.js';
import { parseMoney } from '../parse-support.js';

/**
 * Airbnb prints amounts as localized strings ("$2,245", "-$34.70", "1 234,56 €", "CA$1,020").
 * The currency marker (what is left once digits, separators and signs are removed) names the
 * currencies it can stand for; a bare "$" or "kr" is shared by several, so it is accepted for any
 * of them (Airbnb prices in the `currency` the request names) but never for another currency.
 */
const DOLLARS = ['USD', 'CAD', 'AUD', 'NZD', 'HKD', 'SGD', 'MXN'];
const MARKERS: Readonly<Record<string, readonly string[]>> = {
  $: DOLLARS, US$: ['USD'], CA$: ['CAD'], C$: ['CAD'], A$: ['AUD'], AU$: ['AUD'], NZ$: ['NZD'], HK$: ['HKD'],
  MX$: ['MXN'], S$: ['SGD'], SG$: ['SGD'], R$: ['BRL'], '€': ['EUR'], '£': ['GBP'], '¥': ['JPY', 'CNY'], JP$: ['JPY'],
  'CN¥': ['CNY'], '₹': ['INR'], '฿': ['THB'], '₩': ['KRW'], '₪': ['ILS'], zł: ['PLN'], Kč: ['CZK'], Ft: ['HUF'],
  '₺': ['TRY'], TL: ['TRY'], Rp: ['IDR'], R: ['ZAR'], kr: ['SEK', 'NOK', 'DKK', 'ISK'], 'kr.': ['DKK', 'ISK'],
  CHF: ['CHF'], Fr: ['CHF'], 'Fr.': ['CHF'], 'د.إ': ['AED'], AED: ['AED'], '円': ['JPY'],
};

const NEGATIVE = /^[^\d]*[-−–]/;
const NUMERIC = /\d[\d.,'\s]*\d|\d/;

function normalise(text: string): string {
  return text.replace(/[\u00a0\u202f\u2009\u200e\u200f]/g, ' ').trim();
}

/** The currencies a printed amount may be in; null when it carries no marker at all. */
export function currenciesOf(text: string): readonly string[] | null {
  const marker = normalise(text).replace(NUMERIC, ' ').replace(/[-−–+\s]/g, '');
  if (marker === '') return null;
  if (/^[A-Z]{3}$/.test(marker) && CURRENCY_MINOR_UNITS[marker] !== undefined) return [marker];
  return MARKERS[marker] ?? null;
}

/**
 * Checks that a printed amount is in `currency`: throws a failed leg when it is plainly another
 * one (the numbers are never relabelled); false when the text does not say which currency it is.
 */
export function isInCurrency(text: string, currency: string): boolean {
  const possible = currenciesOf(text);
  if (possible === null) return false;
  if (!possible.includes(currency)) throw new LegFailure('failed', `airbnb answered in ${possible.join('/')}, not ${currency}`);
  return true;
}

/** The signed amount of a printed price, exact whatever the digit grouping, rounded to the minor unit. */
export function amountOf(text: string, currency: string): number | null {
  const t = normalise(text);
  const digits = NUMERIC.exec(t)?.[0];
  if (!digits) return null;
  const money = parseMoney(digits, currency);
  if (money === null) return null;
  return roundToMinor(NEGATIVE.test(t) ? -money.amount : money.amount, currency);
}

/** "4.95 (74)", "4,95 (1 204)" → rating and count; nulls for "New" or an unreadable string. */
export function ratingAndCount(text: unknown): { rating: number | null; count: number | null } {
  if (typeof text !== 'string') return { rating: null, count: null };
  const m = /^\s*(\d(?:[.,]\d{1,2})?)\s*\(([\d.,\s\u00a0\u202f]+)\)/.exec(text);
  if (!m) return { rating: null, count: null };
  return { rating: Number(m[1]!.replace(',', '.')), count: Number(m[2]!.replace(/\D/g, '')) };
}

/** The accessible label "4.95 out of 5 average rating,  74 reviews" (English only). */
export function ratingFromA11y(text: unknown): { rating: number | null; count: number | null } {
  if (typeof text !== 'string') return { rating: null, count: null };
  const m = /^\s*(\d(?:\.\d{1,2})?) out of 5 average rating,\s*([\d,]+) reviews?/.exec(text);
  if (!m) return { rating: null, count: null };
  return { rating: Number(m[1]), count: Number(m[2]!.replace(/\D/g, '')) };
}
