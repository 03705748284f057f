import { z } from 'zod';
import { PriceBasis, TOTAL_PRICE_DESCRIPTION } from './basis.js';

/**
 * Issue 25 items 2, 3 and 5: the room and rate, the fees line by line, and the price's context.
 * Every term is the platform's own statement; a term it does not state is null, with a warning
 * naming it (offer_terms_unknown, price_context_unavailable), never a guess.
 */

export const BOARDS = ['room_only', 'breakfast', 'half_board', 'full_board', 'all_inclusive'] as const;
export type Board = (typeof BOARDS)[number];
export const PAYMENTS = ['prepay', 'pay_at_property', 'pay_later'] as const;
export type Payment = (typeof PAYMENTS)[number];

export const RateOffer = z
  .object({
    roomName: z.string().nullable().describe('The room or rate as the platform names it; null for a whole home without room types.'),
    board: z.enum(BOARDS).nullable().describe('Meals included, as the platform states them; null when it does not say (an offer_terms_unknown warning).'),
    refundable: z.boolean().nullable().describe('true: free cancellation is offered (until freeCancellationUntil when stated); false: stated non-refundable; null: not stated (an offer_terms_unknown warning).'),
    freeCancellationUntil: z.string().datetime({ offset: true }).nullable().describe('ISO date-time until which cancelling is free; null when not stated or not refundable.'),
    payment: z.enum(PAYMENTS).nullable().describe('prepay: paid when booking; pay_at_property: paid at the property; pay_later: paid before arrival but after booking; null: not stated (an offer_terms_unknown warning).'),
    nightlyPrice: z.number().describe('Accommodation subtotal of this offer divided by nights, before fees and taxes.'),
    totalPrice: z.number().describe(TOTAL_PRICE_DESCRIPTION),
    currency: z.string(),
    basis: PriceBasis,
  })
  .meta({ id: 'RateOffer', description: 'One room and rate for the stay (issue 25).' });
export type RateOffer = z.infer<typeof RateOffer>;

/** Which offer the top-level price is, said once for every schema that carries offers. */
export const OFFERS_DESCRIPTION =
  'The rooms and rates the platform offers for the stay, cheapest first. The top-level price is the platform\'s own headline for the stay ' +
  '(booking: the rate its search shows, also the first offer; google: the cheapest OTA total of prices[]; airbnb and vrbo: the listing\'s only rate; sandbox: the cheapest offer). ' +
  '[] when the platform lists no rate beside its headline (an offers_unavailable warning).';
export const CONTEXT_DESCRIPTION = 'Whether the price is low, typical or high for this property, from the platform\'s own range; null when the platform gives none (a price_context_unavailable warning).';

export const VERDICTS = ['low', 'typical', 'high'] as const;
export type Verdict = (typeof VERDICTS)[number];

export const PriceContext = z
  .object({
    typicalLow: z.number().describe('Low end of the nightly price the platform calls typical for this property, in the price currency.'),
    typicalHigh: z.number().describe('High end of that range.'),
    verdict: z.enum(VERDICTS).describe('low: the nightly all-in price (totalPrice / nights) is below typicalLow; high: above typicalHigh; typical: within the range.'),
    source: z.string().describe('Whose range it is (google: Google Hotels\' typical_price_range).'),
  })
  .meta({ id: 'PriceContext', description: 'Whether this price is good for the property, from the platform\'s own typical range (issue 25).' });
export type PriceContext = z.infer<typeof PriceContext>;

export const FEE_KINDS = ['cleaning', 'service', 'tax', 'city_tax', 'resort', 'other'] as const;
export type FeeKind = (typeof FEE_KINDS)[number];

export const FeeItem = z
  .object({
    kind: z.enum(FEE_KINDS),
    name: z.string().describe('The charge as the platform names it (or describes it: "Charge type 22, per stay").'),
    amount: z.number().describe('For the whole stay, in the price currency.'),
    included: z.boolean().describe('true: inside the price the platform displays; false: charged on top of it (an excluded charge, a resort fee due at the property). Either way it is part of totalPrice.'),
    payAtProperty: z.boolean().nullable().describe('true: paid at the property; false: paid with the booking; null: not stated.'),
  })
  .meta({ id: 'FeeItem' });
export type FeeItem = z.infer<typeof FeeItem>;
