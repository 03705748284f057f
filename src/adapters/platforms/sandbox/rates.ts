import { addDays } from '../../../domain/dates.js';
import { roundToMinor } from '../../../domain/currency.js';
import type { Board, Payment, PriceContext, RateOffer } from '../../../domain/model/rates.js';
import { priceContext } from '../../../domain/rates/context.js';
import type { Stay } from '../../../domain/ports/platform.js';
import type { SandboxPlatform } from './ids.js';
import type { SandboxListing } from './property.js';
import { hash32 } from './random.js';
import { stayPrice, subtotalUsd } from './stay-price.js';

/**
 * Issue 25: the sandbox's rooms and rates and its price context, fixed per listing and stay so
 * every case is reachable (README, "Sandbox rates"):
 * - hotels (booking, google, and booking's hotel-type listings) offer the base rate (room only,
 *   non-refundable, prepaid: the top-level price, the cheapest) plus two to four other plans drawn
 *   from PLANS, which between them hold every board, every payment kind, refundable and not, and
 *   terms the platform leaves unstated (null);
 * - homes offer one rate: room only, refundable until two days before check-in (or not,
 *   fixed per listing), prepaid on airbnb and pay_later on vrbo;
 * - context comes from google only (as live): its typical range is the listing's usual nightly
 *   all-in price, so a stay in January or February reads low, in June to August high, in April
 *   on weekdays typical. Other platforms: null with price_context_unavailable.
 */
interface Plan {
  name: string;
  board: Board | null;
  refundable: boolean | null;
  payment: Payment | null;
  factor: number;
}

const BASE: Plan = { name: 'Non-refundable', board: 'room_only', refundable: false, payment: 'prepay', factor: 1 };
const PLANS: readonly Plan[] = [
  { name: 'Flexible with breakfast', board: 'breakfast', refundable: true, payment: 'pay_at_property', factor: 1.12 },
  { name: 'Half board', board: 'half_board', refundable: true, payment: 'pay_later', factor: 1.3 },
  { name: 'Full board', board: 'full_board', refundable: null, payment: null, factor: 1.45 },
  { name: 'All inclusive', board: 'all_inclusive', refundable: true, payment: 'prepay', factor: 1.6 },
  { name: 'Partner rate', board: null, refundable: false, payment: 'pay_later', factor: 1.05 },
];
const ROOMS = ['Standard Double Room', 'Deluxe King Room', 'Twin Room', 'Junior Suite'];

function isHotel(platform: SandboxPlatform, listing: SandboxListing): boolean {
  return platform === 'google' || listing.property.propertyType === 'hotel';
}

/** The plans a hotel listing offers besides the base rate: two to four, fixed per listing. */
export function hotelPlans(platform: SandboxPlatform, listingId: string): Plan[] {
  const h = hash32(`plans:${platform}:${listingId}`);
  const count = 2 + (h % 3);
  return Array.from({ length: count }, (_, i) => PLANS[(h + i * 2) % PLANS.length]!).filter((p, i, all) => all.indexOf(p) === i);
}

/** Free cancellation ends two days before check-in, at noon UTC. */
const cancelUntil = (stay: Stay) => `${addDays(stay.checkIn, -2)}T12:00:00Z`;

export function sandboxOffersFor(platform: SandboxPlatform, listing: SandboxListing, stay: Stay, currency: string): RateOffer[] {
  const id = listing.property.platformListingId;
  const offer = (plan: Plan, roomName: string | null): RateOffer => {
    const p = stayPrice(platform, listing, stay, currency, plan.factor);
    return {
      roomName: roomName && `${roomName} - ${plan.name}`,
      board: plan.board,
      refundable: plan.refundable,
      freeCancellationUntil: plan.refundable ? cancelUntil(stay) : null,
      payment: plan.payment,
      nightlyPrice: p.nightlyPrice,
      totalPrice: p.totalPrice,
      currency,
      basis: p.basis,
    };
  };
  if (!isHotel(platform, listing)) {
    const refundable = hash32(`refund:${platform}:${id}`) % 2 === 0;
    return [offer({ name: '', board: 'room_only', refundable, payment: platform === 'vrbo' ? 'pay_later' : 'prepay', factor: 1 }, null)];
  }
  const room = ROOMS[hash32(`room:${platform}:${id}`) % ROOMS.length]!;
  return [offer(BASE, room), ...hotelPlans(platform, id).map((plan) => offer(plan, room))].sort((a, b) => a.totalPrice - b.totalPrice);
}

/** google's typical range for the listing and stay (see above); null elsewhere. */
export function sandboxContext(platform: SandboxPlatform, listing: SandboxListing, stay: Stay, totalPrice: number, nights: number, currency: string): PriceContext | null {
  if (platform !== 'google') return null;
  // The stay's rates over the listing's usual ones (weekday, April): above 1.15 is high, below 0.9 low.
  const usual = listing.baseRate * nights * (1 + 0.08 * Math.max(0, stay.occupancy.adults + stay.occupancy.children - 2));
  const ratio = subtotalUsd(listing, stay) / usual;
  const nightly = totalPrice / nights;
  const range = { low: roundToMinor((nightly / ratio) * 0.9, currency), high: roundToMinor((nightly / ratio) * 1.15, currency) };
  return priceContext(totalPrice, nights, range, 'google', currency);
}
