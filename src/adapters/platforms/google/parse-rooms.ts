import { roundToMinor } from '../../../domain/currency.js';
import type { PriceContext, RateOffer } from '../../../domain/model/rates.js';
import { priceContext } from '../../../domain/rates/context.js';
import { boardOf } from '../../../domain/rates/board-words.js';
import { refundableOf } from '../../../domain/rates/refund-words.js';
import { unknownTerms } from '../../../domain/rates/offer-terms.js';
import { offerTermsUnknown, offersUnavailable } from '../../../domain/rates/warnings.js';
import { dig, num, str, type FieldWarnings } from '../parse-support.js';
import { amountOf, basisOf } from './rates.js';

/**
 * Issue 25 items 2 and 5 from a SerpApi property details answer
 * (serpapi-google_hotels-property-details-london.json):
 * - offers: `featured_prices[].rooms[]`, each `{ name, num_guests, total_rate }`; the room's name
 *   is the rate's name ("Deluxe Double - Book Early & Save With Breakfast", "Deluxe King -
 *   Non-Refundable"), so a board or refund term the name states is taken from it. Payment terms
 *   are in no field, and a name that states no term leaves it null: a warning names what is null.
 *   Rooms for fewer guests than asked are left out; the same room at the same price from several
 *   OTAs is listed once.
 * - context: `typical_price_range.{extracted_lowest, extracted_highest}`, a nightly range.
 */
export function googleOffers(json: unknown, currency: string, nights: number, guests: number, w: FieldWarnings): RateOffer[] {
  const featured = dig(json, 'featured_prices');
  const seen = new Set<string>();
  const offers: RateOffer[] = [];
  for (const entry of Array.isArray(featured) ? featured : []) {
    const rooms = dig(entry, 'rooms');
    for (const room of Array.isArray(rooms) ? rooms : []) {
      const name = str(dig(room, 'name'));
      const total = amountOf(dig(room, 'total_rate'), 'lowest', currency);
      const numGuests = num(dig(room, 'num_guests'));
      if (name === null || total === null || (numGuests !== null && numGuests < guests)) continue;
      const before = amountOf(dig(room, 'total_rate'), 'before_taxes_fees', currency);
      const key = `${name.toLowerCase()}|${total}`;
      if (seen.has(key)) continue;
      seen.add(key);
      offers.push({
        roomName: name,
        board: boardOf(name),
        refundable: refundableOf(name),
        freeCancellationUntil: null,
        payment: null,
        nightlyPrice: roundToMinor((before ?? total) / nights, currency),
        totalPrice: total,
        currency,
        basis: basisOf(before),
      });
    }
  }
  const unknown = unknownTerms(offers);
  if (offers.length === 0) w.list.push(offersUnavailable('google', 'the answer lists no room rate (featured_prices[].rooms[])'));
  else if (unknown.length) w.list.push(offerTermsUnknown('google', unknown));
  return offers.sort((a, b) => a.totalPrice - b.totalPrice);
}

export function googleContext(json: unknown, totalPrice: number, nights: number, currency: string, w: FieldWarnings): PriceContext | null {
  const range = dig(json, 'typical_price_range');
  const low = amountOf(range, 'lowest', currency);
  const high = num(dig(range, 'extracted_highest')) ?? null;
  const context = low === null || high === null ? null : priceContext(totalPrice, nights, { low, high: roundToMinor(high, currency) }, 'google', currency);
  if (context === null) w.add('price_context_unavailable', 'google: the answer states no typical price range (typical_price_range) for this property; price.context is null.');
  return context;
}
