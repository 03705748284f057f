import { z } from 'zod';
import { IsoDate, Platform } from './common.js';
import { Fees } from './property.js';

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
    nightlyPrice: z.number(),
    totalPrice: z.number(),
    fees: Fees,
    nights: z.number().int(),
    occupancy: Occupancy,
    source: z.string(),
    url: z.string(),
  })
  .meta({ id: 'Price' });
export type Price = z.infer<typeof Price>;

export const Offer = z
  .object({ ota: z.string(), totalPrice: z.number(), currency: z.string(), url: z.string() })
  .meta({ id: 'Offer' });
export type Offer = z.infer<typeof Offer>;

export const PriceCompare = z
  .object({
    property: z.string(),
    googleHotelId: z.string(),
    checkIn: IsoDate,
    checkOut: IsoDate,
    currency: z.string(),
    min: z.number().nullable(),
    median: z.number().nullable(),
    offers: z.array(Offer),
  })
  .meta({ id: 'PriceCompare' });
export type PriceCompare = z.infer<typeof PriceCompare>;
