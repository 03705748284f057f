import { BOARDS, type Board, type RateOffer } from '../model/rates.js';

/**
 * board=X asks for at least those meals: breakfast is met by breakfast, half board, full board
 * and all inclusive (each includes breakfast); room_only by any stated board.
 */
function boardMeets(offered: Board, asked: Board): boolean {
  return BOARDS.indexOf(offered) >= BOARDS.indexOf(asked);
}

/** Search filters on the terms of a stay's offers (issue 25 item 2). */
export interface TermsFilter {
  refundable: boolean | null;
  board: Board | null;
}

export const NO_TERMS_FILTER: TermsFilter = { refundable: null, board: null };

export function hasTermsFilter(f: TermsFilter): boolean {
  return f.refundable !== null || f.board !== null;
}

/**
 * Whether some offer meets the filter: true when one offer states every asked term, false when
 * every offer states a term against it, null when no offer settles it (a term unknown). The
 * stated rule for null: the item is kept, with an offer_terms_unknown warning, since dropping a
 * stay for what its platform did not say would hide stays that may well qualify.
 */
export function meetsTerms(offers: readonly Pick<RateOffer, 'refundable' | 'board'>[], f: TermsFilter): boolean | null {
  let unknown = false;
  for (const o of offers) {
    const refundable = f.refundable === null ? true : o.refundable === null ? null : o.refundable === f.refundable;
    const board = f.board === null ? true : o.board === null ? null : boardMeets(o.board, f.board);
    if (refundable === true && board === true) return true;
    if (refundable !== false && board !== false) unknown = true;
  }
  return unknown || offers.length === 0 ? null : false;
}

export const OFFER_TERMS = ['board', 'refundable', 'payment'] as const;
export type OfferTerm = (typeof OFFER_TERMS)[number];

/** The terms some offer leaves null, in a fixed order: what an offer_terms_unknown warning names. */
export function unknownTerms(offers: readonly Partial<Pick<RateOffer, OfferTerm>>[]): OfferTerm[] {
  return OFFER_TERMS.filter((t) => offers.some((o) => o[t] === null));
}
