import { addDays, daysBetween, toDayNumber } from '../../../domain/dates.js';
import { roundToMinor } from '../../../domain/currency.js';
import type { PriceBasis, StayPrice } from '../../../domain/model/property.js';
import { hash32 } from './random.js';
import { feesFromItems } from '../../../domain/rates/fees.js';
import { sandboxFeeItems } from './fees.js';
import type { Stay } from '../../../domain/ports/platform.js';
import type { SandboxPlatform } from './ids.js';
import type { SandboxListing } from './property.js';

/** Fixed sandbox exchange rates from USD. Live adapters use the platform's own currency. */
const USD_RATES: Record<string, number> = {
  USD: 1, EUR: 0.92, GBP: 0.79, CHF: 0.88, CAD: 1.36, AUD: 1.52, NZD: 1.66, JPY: 151, CNY: 7.2, HKD: 7.8,
  SGD: 1.34, INR: 83.2, IDR: 15700, THB: 35.6, MXN: 17.1, BRL: 5.0, ZAR: 18.6, SEK: 10.6, NOK: 10.7, DKK: 6.9,
  PLN: 4.0, CZK: 23.1, HUF: 360, TRY: 32, AED: 3.67, KRW: 1340, ISK: 138, ILS: 3.7,
};

const MONTH_FACTOR = [0.85, 0.85, 0.95, 1.0, 1.05, 1.2, 1.35, 1.35, 1.1, 1.0, 0.9, 1.1];

function nightRate(base: number, date: string): number {
  const day = toDayNumber(date)!;
  const weekday = (day + 4) % 7; // 1970-01-01 was a Thursday; 5 and 6 are Friday and Saturday nights
  const weekend = weekday === 5 || weekday === 6 ? 1.15 : 1;
  return base * weekend * MONTH_FACTOR[Number(date.slice(5, 7)) - 1]!;
}

/**
 * The basis a sandbox listing states its prices on, so clients meet every basis: most listings
 * are all-in; one in ten (booking and google: two in ten) states its total before taxes, and one
 * in ten does not say. Fixed per listing, like a real platform's display rules.
 */
export function sandboxBasis(platform: SandboxPlatform, listingId: string): PriceBasis {
  const k = hash32(`basis:${platform}:${listingId}`) % 10;
  if (k === 0) return 'unknown';
  if (k === 1 || (k === 2 && (platform === 'booking' || platform === 'google'))) return 'before_taxes';
  return 'all_in';
}

const occupancyFactor = (stay: Stay) => 1 + 0.08 * Math.max(0, stay.occupancy.adults + stay.occupancy.children - 2);

/** The accommodation subtotal of a stay in USD, before any fee: the sum of its nights' rates. */
export function subtotalUsd(listing: SandboxListing, stay: Stay): number {
  const nights = daysBetween(stay.checkIn, stay.checkOut);
  let sum = 0;
  for (let i = 0; i < nights; i++) sum += nightRate(listing.baseRate * occupancyFactor(stay), addDays(stay.checkIn, i));
  return sum;
}

/**
 * One night in `currency`, rounded to its minor unit (`occupancy`: the stay's occupancy factor;
 * `plan`: the rate plan's): the figure the calendar states (two guests, the base plan) and the one a stay's subtotal adds up, night by night (issue 34: one rounding
 * rule, so a calendar's cheapest stay and /price for it agree to the cent).
 */
function nightInCurrency(listing: SandboxListing, date: string, currency: string, occupancy = 1, plan = 1): number {
  return roundToMinor(nightRate(listing.baseRate * occupancy, date) * plan * (USD_RATES[currency] ?? 1), currency);
}

/** A night's rate in `currency`, as the sandbox calendar states it (two guests). */
export function calendarNightRate(listing: SandboxListing, date: string, currency: string): number {
  return nightInCurrency(listing, date, currency);
}

/** The stay's accommodation subtotal in `currency`: its nights as the calendar rounds them, summed. */
function subtotalIn(listing: SandboxListing, stay: Stay, currency: string, plan: number): number {
  const nights = daysBetween(stay.checkIn, stay.checkOut);
  let sum = 0;
  for (let i = 0; i < nights; i++) sum += nightInCurrency(listing, addDays(stay.checkIn, i), currency, occupancyFactor(stay), plan);
  return roundToMinor(sum, currency);
}

/**
 * The price of a stay on the listing's basis, each part rounded to the currency's minor unit and
 * summed exactly (the subtotal night by night, as the calendar states them). Before taxes and
 * unknown: taxes are not stated (null) and not in the total.
 * `rateFactor` prices another rate plan of the same stay (sandbox rates.ts).
 */
export function stayPrice(platform: SandboxPlatform, listing: SandboxListing, stay: Stay, currency: string, rateFactor = 1): StayPrice {
  const nights = daysBetween(stay.checkIn, stay.checkOut);
  const rate = USD_RATES[currency] ?? 1;
  const baseUsd = subtotalUsd(listing, stay);
  const money = (usd: number) => roundToMinor(usd * rate, currency);
  const subtotal = subtotalIn(listing, stay, currency, rateFactor);
  const basis = sandboxBasis(platform, listing.property.platformListingId);
  const items = sandboxFeeItems(platform, listing, { nights, baseUsd, basis, money, currency });
  const fees = feesFromItems(items, currency);
  const total = items.reduce<number>((sum, item) => sum + item.amount, subtotal);
  return {
    currency,
    basis,
    nightlyPrice: roundToMinor(subtotal / nights, currency),
    totalPrice: roundToMinor(total, currency),
    nights,
    fees,
  };
}
