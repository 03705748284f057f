import { CURRENCY_MINOR_UNITS, roundToMinor } from '../../domain/currency.js';
import type { Warning } from '../../domain/model/common.js';
import type { Platform } from '../../domain/platforms.js';

/**
 * Helpers every platform parser shares. Parsers are pure: upstream JSON in, unified values out,
 * with a warning for every field that could not be extracted (its value is then null, never a
 * made-up 0 or []).
 */
export class FieldWarnings {
  readonly list: Warning[] = [];
  constructor(private readonly platform: Platform) {}

  /** Records that `field` could not be extracted and returns null, for `x ?? warnings.missing('x')`. */
  missing(field: string, why = 'not present in the platform response'): null {
    if (!this.list.some((w) => w.code === 'field_unavailable' && w.message.startsWith(`${field}:`))) {
      this.list.push({ code: 'field_unavailable', message: `${field}: ${why}`, platform: this.platform });
    }
    return null;
  }

  add(code: string, message: string): void {
    this.list.push({ code, message, platform: this.platform });
  }

  /** Adds `warning` unless one of its code is listed already: a warning said once per answer. */
  once(warning: Warning): void {
    if (!this.list.some((w) => w.code === warning.code)) this.list.push(warning);
  }
}

/**
 * Symbols that name exactly one currency. A bare "$" (USD, CAD, AUD, MXN, ...), "¥" (JPY, CNY)
 * or "kr" names none: the currency is then unknown, never guessed.
 */
const SYMBOLS: Record<string, string> = { US$: 'USD', '€': 'EUR', '£': 'GBP', '₹': 'INR', Rp: 'IDR', '฿': 'THB', '₩': 'KRW', R$: 'BRL', 'A$': 'AUD', 'C$': 'CAD', CHF: 'CHF', zł: 'PLN', Kč: 'CZK' };

export interface Money {
  amount: number;
  /** ISO code when the text names one (a code, or a symbol of one currency only), else null. */
  currency: string | null;
}

/**
 * An amount as printed by a platform, whatever its digit grouping: "$1,234.56", "€1.234,56",
 * "Rp 626.423", "1 234,56 €", "CHF 1'234.50". Abbreviated amounts ("₹7.5K") are refused (null):
 * they are not a price. `currencyHint` decides the minor unit when the text does not say.
 */
export function parseMoney(text: string, currencyHint?: string): Money | null {
  const t = text.replace(/\u00a0|\u202f/g, ' ').trim();
  // "7.5K" is an abbreviation, not an amount; "1 234 Kč" (a currency) is an amount.
  if (!t || /\d\s*[kKmM](?!\p{L})/u.test(t)) return null;
  const code = /\b([A-Z]{3})\b/.exec(t)?.[1];
  const symbol = Object.keys(SYMBOLS).sort((a, b) => b.length - a.length).find((s) => t.includes(s));
  const currency = code && CURRENCY_MINOR_UNITS[code] !== undefined ? code : symbol ? SYMBOLS[symbol]! : null;
  const digits = /-?\d[\d.,' ]*\d|\d/.exec(t)?.[0];
  if (!digits) return null;
  const minor = CURRENCY_MINOR_UNITS[currency ?? currencyHint ?? 'USD'] ?? 2;
  const clean = digits.replace(/[' ]/g, '');
  const lastDot = clean.lastIndexOf('.');
  const lastComma = clean.lastIndexOf(',');
  let normalised: string;
  if (lastDot >= 0 && lastComma >= 0) {
    const decimal = lastDot > lastComma ? '.' : ',';
    normalised = clean.split(decimal === '.' ? ',' : '.').join('').replace(decimal, '.');
  } else if (lastDot >= 0 || lastComma >= 0) {
    const sep = lastDot >= 0 ? '.' : ',';
    const parts = clean.split(sep);
    const tail = parts[parts.length - 1]!;
    // One separator followed by 1-2 digits is a decimal point (in a currency that has decimals);
    // groups of three are thousands.
    const isDecimal = parts.length === 2 && tail.length <= 2 && minor > 0;
    normalised = isDecimal ? parts.join('.') : parts.join('');
  } else {
    normalised = clean;
  }
  const amount = Number(normalised);
  if (!Number.isFinite(amount)) return null;
  return { amount: roundToMinor(amount, currency ?? currencyHint ?? 'USD'), currency };
}

/** A finite number from a number or a numeric string, else null. */
export function num(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  return null;
}

/** A non-empty trimmed string, else null. */
export function str(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

/** Follows a path of keys and indexes through untyped JSON; undefined when any step is missing. */
export function dig(value: unknown, ...path: (string | number)[]): unknown {
  let cur = value;
  for (const key of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string | number, unknown>)[key];
  }
  return cur;
}
