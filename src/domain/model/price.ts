import { z } from 'zod';
import { IsoDate, Platform } from './common.js';
import { Fees, PriceBasis, TOTAL_PRICE_DESCRIPTION } from './property.js';
import { BOARDS, CONTEXT_DESCRIPTION, OFFERS_DESCRIPTION, PriceContext, RateOffer } from './rates.js';

export const Occupancy = z
  .object({ adults: z.number().int(), children: z.number().int(), childAges: z.array(z.number().int()) })
  .meta({ id: 'Occupancy' });

export const Price = z
  .object({
    platform: Platform,
    listingId: z.string(),
    checkIn: IsoDate,
    checkOut: IsoDate,
    currency: z.string(),
    basis: PriceBasis,
    nightlyPrice: z.number().describe('Accommodation subtotal divided by nights, before fees and taxes.'),
    totalPrice: z.number().describe(TOTAL_PRICE_DESCRIPTION),
    fees: Fees,
    offers: z.array(RateOffer).describe(OFFERS_DESCRIPTION),
    context: PriceContext.nullable().describe(CONTEXT_DESCRIPTION),
    nights: z.number().int(),
    occupancy: Occupancy,
    source: z.string(),
    url: z.string(),
  })
  .meta({ id: 'Price' });
export type Price = z.infer<typeof Price>;

export const Offer = z
  .object({
    ota: z.string(),
    totalPrice: z.number().describe(TOTAL_PRICE_DESCRIPTION),
    basis: PriceBasis,
    currency: z.string(),
    url: z.string(),
    refundable: z.boolean().nullable().describe('As the OTA states it (issue 25); null when not stated (an offer_terms_unknown warning).'),
    board: z.enum(BOARDS).nullable().describe('Meals included, as the OTA states them; null when not stated (an offer_terms_unknown warning).'),
  })
  .meta({ id: 'Offer' });
export type Offer = z.infer<typeof Offer>;

export const PriceCompare = z
  .object({
    property: z.string(),
    googleHotelId: z.string(),
    checkIn: IsoDate,
    checkOut: IsoDate,
    currency: z.string(),
    basis: PriceBasis.nullable().describe('The basis of the compared offers: the most common one among the offers (all_in first on a tie); null when there are no offers.'),
    min: z.number().nullable().describe('Lowest totalPrice among `offers` (all of one basis).'),
    median: z.number().nullable().describe('Median totalPrice among `offers` (all of one basis).'),
    offers: z.array(Offer).describe('Offers on `basis`, cheapest first: the ones min and median are computed over.'),
    otherOffers: z.array(Offer).describe('Offers on another basis, listed apart and left out of min and median (an offers_basis_mixed warning says so).'),
  })
  .meta({ id: 'PriceCompare' });
export type PriceCompare = z.infer<typeof PriceCompare>;
