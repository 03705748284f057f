import { daysBetween } from '../../../domain/dates.js';
import type { Price } from '../../../domain/model/price.js';
import { LegFailure, type Adapted, type PriceRequest } from '../../../domain/ports/platform.js';
import { dig, FieldWarnings } from '../parse-support.js';
import { contextUnavailable, offerTermsUnknown } from '../../../domain/rates/warnings.js';
import { nativeIdFromRelay } from './ids.js';
import { parseCardPrice, searchResultsOf } from './parse-search.js';

export interface PriceQuoteDeps {
  /** The listing's coordinates (from its StaysPdpSections); null when the listing does not exist. */
  locate(listingId: string): Promise<{ lat: number; lng: number } | null>;
  /** One page of a dated StaysSearch over a small map box around a point. */
  searchAround(lat: number, lng: number, req: PriceRequest, cursor: string | null): Promise<unknown>;
  siteUrl: string;
  /** Airbnb's infants (under 2) are not counted as children in its echo of the party. */
  childrenSent: number;
  maxPages: number;
}

/**
 * A price quote answered only from Airbnb's own dated search card for that very listing: the
 * listing's coordinates come from its detail page, a map search around them for the stay finds its
 * card, and the card's line items give the exact price (`parseCardPrice`, which checks the card is
 * for exactly these dates and this party). No card, or no exact price on it: a failed leg, never
 * a guess and never another listing's price.
 */
export async function priceQuote(req: PriceRequest, deps: PriceQuoteDeps): Promise<Adapted<Price> | null> {
  const point = await deps.locate(req.listingId);
  if (point === null) return null;
  const w = new FieldWarnings('airbnb');
  const ctx = {
    currency: req.currency,
    siteUrl: deps.siteUrl,
    stay: { checkIn: req.checkIn, checkOut: req.checkOut, adults: req.occupancy.adults, children: deps.childrenSent },
  };
  let cursors: string[] = [];
  for (let page = 0; page < deps.maxPages; page++) {
    const cursor = page === 0 ? null : cursors[page];
    if (cursor === undefined) break;
    const { results, pageCursors } = searchResultsOf(await deps.searchAround(point.lat, point.lng, req, cursor));
    if (pageCursors.length) cursors = pageCursors;
    const card = results.find((r) => nativeIdFromRelay(dig(r, 'demandStayListing', 'id')) === req.listingId);
    if (card === undefined) continue;
    const price = parseCardPrice(card, req.listingId, ctx, w);
    if (price === null) {
      throw new LegFailure('failed', `airbnb gave no exact price for listing ${req.listingId}: ${w.list.map((x) => x.message).join(' ') || 'no price on its card'}`);
    }
    const url = `${deps.siteUrl.replace(/\/$/, '')}/rooms/${req.listingId}?check_in=${req.checkIn}&check_out=${req.checkOut}&adults=${req.occupancy.adults}`;
    return {
      value: {
        platform: 'airbnb',
        listingId: req.listingId,
        checkIn: req.checkIn,
        checkOut: req.checkOut,
        currency: price.currency,
        basis: price.basis,
        nightlyPrice: price.nightlyPrice,
        totalPrice: price.totalPrice,
        fees: price.fees,
        // A home has one rate: its card's price. Its meal plan, refund and payment terms are not
        // on the card (null, offer_terms_unknown); Airbnb states no typical range (context null).
        offers: [{ roomName: null, board: null, refundable: null, freeCancellationUntil: null, payment: null, nightlyPrice: price.nightlyPrice, totalPrice: price.totalPrice, currency: price.currency, basis: price.basis }],
        context: null,
        nights: daysBetween(req.checkIn, req.checkOut),
        occupancy: req.occupancy,
        source: 'airbnb',
        url,
      },
      warnings: [...w.list, offerTermsUnknown('airbnb', ['board', 'refundable', 'payment']), contextUnavailable('airbnb')],
    };
  }
  throw new LegFailure('failed', `airbnb offered no price for listing ${req.listingId} from ${req.checkIn} to ${req.checkOut} (not bookable for that stay, or not in the map search around it)`);
}
