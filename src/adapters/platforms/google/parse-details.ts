import { daysBetween } from '../../../domain/dates.js';
import { roundToMinor } from '../../../domain/currency.js';
import type { Price } from '../../../domain/model/price.js';
import type { Property } from '../../../domain/model/property.js';
import { LegFailure, UpstreamFormatError, type Adapted, type OfferSet, type PriceRequest, type Stay } from '../../../domain/ports/platform.js';
import { dig, FieldWarnings, str } from '../parse-support.js';
import { answerKind, assertCurrency, assertListing, assertStay } from './guards.js';
import { detailsToken, parseProperty, PLATFORM } from './parse.js';
import { basisOf, feesCombined, lumpFees, otaRates } from './rates.js';
import { googleContext, googleOffers } from './parse-rooms.js';
import { parseNearby } from './nearby.js';
import { statedDetailsSummary } from './review-verdict.js';
import { listingReviewSummary } from '../../../domain/reviews/summary.js';
import { unknownTerms } from '../../../domain/rates/offer-terms.js';
import { offerTermsUnknown } from '../../../domain/rates/warnings.js';
import { RATING_SCALE } from '../../../domain/platforms.js';

/**
 * A SerpApi `engine=google_hotels` property details answer (`property_token=...`) read three ways:
 * the listing, the lowest rate for a stay (price), and every OTA's rate (price compare). Each
 * returns null when SerpApi says the property has no results (it does not exist), and fails the
 * leg when the answer is about another property, currency or stay.
 */

/** spec 4.4: the property alone, with the places nearby and the reviews' verdict; its price is a separate leg. */
export function parseListing(json: unknown, listingId: string): Adapted<Property> | null {
  if (answerKind(json) === 'no_results') return null;
  assertListing(json, listingId);
  const w = new FieldWarnings(PLATFORM);
  // assertListing proved every token the answer echoes is the one asked for: the request names it.
  const property = parseProperty(json, null, w, detailsToken(json) ?? listingId);
  if (property === null) throw new UpstreamFormatError(`google's details of listing ${listingId} have no name`);
  const nearby = parseNearby(json, property.location, w);
  const verdict = listingReviewSummary(PLATFORM, RATING_SCALE[PLATFORM], statedDetailsSummary(json, w));
  return { value: { ...property, nearby, reviewSummary: verdict.summary }, warnings: [...w.list, ...verdict.warnings] };
}

function checkedStay(json: unknown, listingId: string, stay: Stay, currency: string): number {
  assertListing(json, listingId);
  assertCurrency(json, currency);
  assertStay(json, stay.checkIn, stay.checkOut);
  return daysBetween(stay.checkIn, stay.checkOut);
}

/** SerpApi's `num_guests` is compared with the adults only: whether it counts children is not documented. */
function guestsOf(stay: Stay): number {
  return stay.occupancy.adults;
}

/**
 * spec 4.5: the lowest OTA total for the stay, naming the OTA that offers it (Google's own
 * headline `total_rate` names none, so it is not used). No rate at all is a failed leg: a price
 * that cannot be determined is an error, never a guess.
 */
export function parsePrice(json: unknown, req: PriceRequest): Adapted<Price> | null {
  if (answerKind(json) === 'no_results') return null;
  const nights = checkedStay(json, req.listingId, req, req.currency);
  const w = new FieldWarnings(PLATFORM);
  const rates = otaRates(json, req.currency, guestsOf(req), w);
  if (rates.length === 0) throw new LegFailure('failed', `google listed no rate for listing ${req.listingId} from ${req.checkIn} to ${req.checkOut}`);
  const best = rates.reduce((a, b) => (b.totalPrice < a.totalPrice ? b : a));
  if (best.beforeTaxes === null) w.add('price_basis_unclear', `${best.source} did not say whether its total includes taxes and fees.`);
  else feesCombined(w, best.source);
  return {
    value: {
      platform: PLATFORM,
      listingId: req.listingId,
      checkIn: req.checkIn,
      checkOut: req.checkOut,
      currency: req.currency,
      basis: basisOf(best.beforeTaxes),
      nightlyPrice: roundToMinor((best.beforeTaxes ?? best.totalPrice) / nights, req.currency),
      totalPrice: best.totalPrice,
      fees: lumpFees(best.totalPrice, best.beforeTaxes, req.currency, w),
      offers: googleOffers(json, req.currency, nights, guestsOf(req), w),
      context: googleContext(json, best.totalPrice, nights, req.currency, w),
      nights,
      occupancy: req.occupancy,
      source: best.source,
      url: best.url,
    },
    warnings: w.list,
  };
}

/** spec 4.6: one offer per OTA of `prices[]`, totals for the stay in the requested currency. */
export function parseOffers(json: unknown, googleHotelId: string, stay: Stay, currency: string): Adapted<OfferSet> | null {
  if (answerKind(json) === 'no_results') return null;
  checkedStay(json, googleHotelId, stay, currency);
  const name = str(dig(json, 'name'));
  if (name === null) throw new UpstreamFormatError(`google's details of ${googleHotelId} have no name`);
  const w = new FieldWarnings(PLATFORM);
  const rates = otaRates(json, currency, guestsOf(stay), w);
  const unclear = rates.filter((r) => r.beforeTaxes === null).map((r) => r.source);
  if (unclear.length) {
    w.add('price_basis_unclear', `${unclear.length} offer(s) did not say whether their total includes taxes and fees: ${unclear.join(', ')}.`);
  }
  // Refund terms and meals only where an OTA's remarks state them (issue 25); null otherwise,
  // and the warning names which (issue 34).
  const offers = rates.map((r) => ({ ota: r.source, totalPrice: r.totalPrice, basis: basisOf(r.beforeTaxes), currency, url: r.url, refundable: r.refundable, board: r.board }));
  const unknown = unknownTerms(offers);
  if (unknown.length) w.list.push(offerTermsUnknown(PLATFORM, unknown));
  // The address says which property was matched (meta.resolved.property, issue 16); null when google gives none.
  return { value: { property: name, googleHotelId, offers, address: str(dig(json, 'address')) }, warnings: w.list };
}
