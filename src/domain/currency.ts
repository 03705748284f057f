/**
 * Currencies the service prices in, with their ISO-4217 minor units. Amounts are numbers rounded
 * to the minor unit (design.md section 5); an unsupported code is a 400, never a relabelled number.
 */
const MINOR_UNITS = {
  USD: 2, EUR: 2, GBP: 2, CHF: 2, CAD: 2, AUD: 2, NZD: 2, JPY: 0, CNY: 2, HKD: 2, SGD: 2, INR: 2,
  IDR: 2, THB: 2, MXN: 2, BRL: 2, ZAR: 2, SEK: 2, NOK: 2, DKK: 2, PLN: 2, CZK: 2, HUF: 2, TRY: 2,
  AED: 2, KRW: 0, ISK: 0, ILS: 2,
} as const;

export const CURRENCY_MINOR_UNITS: Readonly<Record<string, number>> = MINOR_UNITS;
export type CurrencyCode = keyof typeof MINOR_UNITS;
/** As a tuple of literal codes, so the currency parameter's type is the list, not any string. */
export const SUPPORTED_CURRENCIES = Object.keys(MINOR_UNITS) as [CurrencyCode, ...CurrencyCode[]];

export function isSupportedCurrency(code: string): boolean {
  return Object.hasOwn(CURRENCY_MINOR_UNITS, code);
}

/** Rounds half away from zero at the currency's minor unit, avoiding binary drift (1.005 -> 1.01). */
export function roundToMinor(amount: number, currency: string): number {
  const digits = CURRENCY_MINOR_UNITS[currency] ?? 2;
  const factor = 10 ** digits;
  const scaled = Math.abs(amount) * factor;
  const rounded = Math.round(Number(scaled.toPrecision(15)));
  return (Math.sign(amount) * rounded) / factor;
}
