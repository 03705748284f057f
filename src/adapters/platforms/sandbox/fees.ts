import type { FeeItem } from '../../../domain/model/rates.js';
import type { PriceBasis } from '../../../domain/model/property.js';
import { roundToMinor } from '../../../domain/currency.js';
import type { SandboxPlatform } from './ids.js';
import type { SandboxListing } from './property.js';
import { hash32 } from './random.js';

/** Fee rules per platform: shares of the accommodation subtotal; null where the platform states no such fee. */
const FEES: Record<SandboxPlatform, { cleaning: number | null; service: number | null; taxes: number | null }> = {
  airbnb: { cleaning: 0.45, service: 0.142, taxes: 0.08 },
  vrbo: { cleaning: 0.6, service: 0.09, taxes: 0.07 },
  booking: { cleaning: null, service: null, taxes: 0.1 },
  google: { cleaning: null, service: null, taxes: 0.12 },
};

/** Share of a stay's taxes that is the city's tourist tax; the rest is VAT. */
const CITY_TAX_SHARE = 0.25;
/** Resort fee per night (USD), due at the property, on one hotel in three. */
const RESORT_FEE_USD = 8;
/** Vrbo's flat damage protection (USD), an "other" charge every vrbo stay carries. */
const DAMAGE_PROTECTION_USD = 39;

export interface FeeContext {
  nights: number;
  baseUsd: number;
  basis: PriceBasis;
  money: (usd: number) => number;
  currency: string;
}

/** A hotel listing that charges a resort fee at the property: fixed per listing (one in three). */
export function chargesResortFee(platform: SandboxPlatform, listing: SandboxListing): boolean {
  return listing.property.propertyType === 'hotel' && hash32(`resort:${platform}:${listing.property.platformListingId}`) % 3 === 0;
}

/**
 * The sandbox's fee lines, so clients meet every kind (issue 25 item 3): cleaning and service on
 * rentals, VAT (tax) and a city tax on all-in prices (booking's city tax is due at the property,
 * excluded from its displayed price, as Booking.com shows it), a resort fee due at the property on
 * one hotel in three, and vrbo's damage protection (other). Every line is part of totalPrice.
 */
export function sandboxFeeItems(platform: SandboxPlatform, listing: SandboxListing, c: FeeContext): FeeItem[] {
  const rule = FEES[platform];
  const items: FeeItem[] = [];
  if (rule.cleaning !== null && listing.property.propertyType !== 'hotel') {
    items.push({ kind: 'cleaning', name: 'Cleaning fee', amount: c.money(listing.baseRate * rule.cleaning), included: true, payAtProperty: false });
  }
  if (rule.service !== null) items.push({ kind: 'service', name: 'Service fee', amount: c.money(c.baseUsd * rule.service), included: true, payAtProperty: false });
  if (rule.taxes !== null && c.basis === 'all_in') {
    const taxes = c.money(c.baseUsd * rule.taxes);
    const cityTax = roundToMinor(taxes * CITY_TAX_SHARE, c.currency);
    const atProperty = platform === 'booking';
    items.push({ kind: 'tax', name: 'VAT', amount: roundToMinor(taxes - cityTax, c.currency), included: true, payAtProperty: false });
    items.push({ kind: 'city_tax', name: 'City tax', amount: cityTax, included: !atProperty, payAtProperty: atProperty });
  }
  if (chargesResortFee(platform, listing)) {
    items.push({ kind: 'resort', name: 'Resort fee', amount: c.money(RESORT_FEE_USD * c.nights), included: false, payAtProperty: true });
  }
  if (platform === 'vrbo') items.push({ kind: 'other', name: 'Damage protection', amount: c.money(DAMAGE_PROTECTION_USD), included: true, payAtProperty: false });
  return items;
}
