import type { Warning } from '../model/common.js';
import type { Platform } from '../platforms.js';
import type { RateOffer } from '../model/rates.js';
import { OFFER_TERMS, unknownTerms, type OfferTerm, type TermsFilter } from './offer-terms.js';

/**
 * The warnings of issue 25, worded once: each names what is missing and says the value is null
 * (or the list empty) rather than guessed. Their codes are in the warning table of /docs.
 */
export function nightlyPriceUnavailable(platform: Platform, why = 'its calendar states no price per night'): Warning {
  return { code: 'nightly_price_unavailable', message: `${platform}: ${why}; dates[].nightlyPrice is null.`, platform };
}

export function contextUnavailable(platform: Platform, why = 'it states no typical price range for this property'): Warning {
  return { code: 'price_context_unavailable', message: `${platform}: ${why}; price.context is null.`, platform };
}

export function offerTermsUnknown(platform: Platform, terms: string[]): Warning {
  return { code: 'offer_terms_unknown', message: `${platform} does not state ${terms.join(', ')} for some offers; those terms are null.`, platform };
}

/** A fee line whose payment place (with the booking or at the property) is not stated: its payAtProperty is null. */
export function feePaymentUnknown(platform: Platform): Warning {
  return { code: 'fee_payment_unknown', message: `${platform} does not state whether some fee lines are paid with the booking or at the property; their payAtProperty is null.`, platform };
}

/**
 * The offer_terms_unknown warning the schema promises for every offer with a null term (the
 * error catalogue: "a board, refund or payment term ... is null"), naming the terms (unknownTerms,
 * the order adapters name them in) and counting the offers; null when every offer states its
 * terms, or when the platform's own answer already said so (`said`), so the rule holds for every
 * adapter without a second warning.
 */
export function unknownTermsOf(platform: Platform, offers: readonly Partial<Pick<RateOffer, OfferTerm>>[], said: readonly Warning[]): Warning | null {
  if (said.some((w) => w.code === 'offer_terms_unknown' && w.platform === platform)) return null;
  const terms = unknownTerms(offers);
  if (terms.length === 0) return null;
  const open = offers.filter((o) => OFFER_TERMS.some((t) => o[t] === null)).length;
  return { code: 'offer_terms_unknown', message: `${platform} does not state ${terms.join(', ')} for ${open} of ${offers.length} offers; those terms are null.`, platform };
}

export function offersUnavailable(platform: Platform, why: string): Warning {
  return { code: 'offers_unavailable', message: `${platform}: ${why}; price.offers is empty and the top-level price is the only rate.`, platform };
}

/**
 * A search with refundable= or board= on a platform whose search answer states no terms: every
 * item's terms are unknown, so by the stated rule (offer-terms.ts) all are kept, and this says so.
 */
export function termsNotInSearch(platform: Platform, filters: string[]): Warning {
  return { code: 'offer_terms_unknown', message: `${platform}: its search results state no ${filters.join(' or ')} terms; its items are kept unfiltered by ${filters.join(', ')} (check price.offers of a dated listing).`, platform };
}

/** The names of the terms filters a query asks for: [] when none. */
export function termsFilterNames(f: TermsFilter): string[] {
  return [...(f.refundable !== null ? ['refundable'] : []), ...(f.board !== null ? ['board'] : [])];
}
