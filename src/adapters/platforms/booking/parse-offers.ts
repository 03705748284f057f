import { roundToMinor } from '../../../domain/currency.js';
import type { StayPrice } from '../../../domain/model/property.js';
import type { RateOffer } from '../../../domain/model/rates.js';
import { boardOf } from '../../../domain/rates/board-words.js';
import { refundableOf } from '../../../domain/rates/refund-words.js';
import { unknownTerms } from '../../../domain/rates/offer-terms.js';
import { offerTermsUnknown, offersUnavailable } from '../../../domain/rates/warnings.js';
import type { Warning } from '../../../domain/model/common.js';
import { dig, num, str } from '../parse-support.js';

/**
 * Issue 25 item 2: the rates of one FullSearch result (graphql-searchresults-results-array-malta-usd.json).
 * Each `blocks[]` entry is a room and rate: `finalPrice` (the displayed price of that block; for
 * the first, the result's display price), `freeCancellationUntil`, `blockId.mealPlanId`. The
 * result's `mealPlanIncluded.text` ("Breakfast included") and `policies` (showFreeCancellation,
 * showNoPrepayment) state the terms of the rate it displays, the first block. Terms not stated
 * are null, never inferred from absence (no "Breakfast included" is not "room only"). A room name
 * that states its refund terms ("Double Room - Non-refundable") states them for every block of it.
 */
function isoDateTime(value: unknown): string | null {
  const s = str(value);
  if (s === null) return null;
  const d = new Date(/^\d{4}-\d{2}-\d{2}$/.test(s) ? `${s}T00:00:00Z` : s);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

export function bookingOffers(item: unknown, stay: StayPrice): { offers: RateOffer[]; warnings: Warning[] } {
  const blocks = dig(item, 'blocks');
  if (!Array.isArray(blocks) || blocks.length === 0) {
    return { offers: [], warnings: [offersUnavailable('booking', 'its search result lists no room block for the stay')] };
  }
  const { currency, nights } = stay;
  // What the display price excludes is paid on top of every block's price alike.
  const excluded = stay.fees.items.filter((i) => !i.included).reduce((sum, i) => sum + i.amount, 0);
  const roomName = str(dig(item, 'matchingUnitConfigurations', 'commonConfiguration', 'unitTypeNames', 0, 'translation'));
  const policies = dig(item, 'policies');
  const offers: RateOffer[] = [];
  blocks.forEach((block, i) => {
    const amount = num(dig(block, 'finalPrice', 'amount'));
    const blockCurrency = str(dig(block, 'finalPrice', 'currency'));
    if (amount === null || blockCurrency !== currency) return;
    const until = isoDateTime(dig(block, 'freeCancellationUntil'));
    // The result's own statements are about the rate it displays: the first block.
    const first = i === 0;
    const refundable = until !== null ? true : first && dig(policies, 'showFreeCancellation') === true ? true : refundableOf(roomName);
    const payment = first && dig(policies, 'showNoPrepayment') === true ? 'pay_at_property' : null;
    const board = first ? boardOf(str(dig(item, 'mealPlanIncluded', 'text'))) : null;
    offers.push({
      roomName,
      board,
      refundable,
      freeCancellationUntil: until,
      payment,
      nightlyPrice: roundToMinor(amount / nights, currency),
      totalPrice: roundToMinor(amount + excluded, currency),
      currency,
      basis: stay.basis,
    });
  });
  const unknown = unknownTerms(offers);
  const warnings = offers.length === 0 ? [offersUnavailable('booking', 'no room block of its search result is priced in the requested currency')] : [];
  if (unknown.length) warnings.push(offerTermsUnknown('booking', unknown));
  return { offers: offers.sort((a, b) => a.totalPrice - b.totalPrice), warnings };
}
