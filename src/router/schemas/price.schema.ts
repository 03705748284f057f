import { z } from 'zod';
import { Price } from '../../domain/model/price.js';
import { envelope } from '../../domain/model/common.js';
import { OccupancyFields, Currency, DateParam, ListingIdOrUrlParam, PlatformParam, MaxCredits, DryRun, MAX_STAY_NIGHTS, LISTING_ID_FORMS } from './common-input.js';
import { checkChildren, checkStay } from './rules.js';

export const PriceInput = z
  .object({
    platform: PlatformParam,
    listingId: ListingIdOrUrlParam.describe(`${LISTING_ID_FORMS}; or a full listing URL of the platform, parsed, never fetched.`),
    checkIn: DateParam.describe('First night, YYYY-MM-DD.'),
    checkOut: DateParam.describe(`Day of departure, YYYY-MM-DD: after checkIn, at most ${MAX_STAY_NIGHTS} nights later.`),
    ...OccupancyFields,
    currency: Currency.default('USD'),
    maxCredits: MaxCredits,
    dryRun: DryRun,
  })
  .superRefine((v, ctx) => {
    checkStay(ctx, v, true);
    checkChildren(ctx, v);
  });
export type PriceInput = z.infer<typeof PriceInput>;

export const PriceOutput = envelope(Price).meta({ id: 'PriceResponse' });
