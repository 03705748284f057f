import { z } from 'zod';
import { PriceCompare } from '../../domain/model/price.js';
import { envelope } from '../../domain/model/common.js';
import { OccupancyFields, Currency, DateParam, MaxCredits, DryRun, MAX_STAY_NIGHTS } from './common-input.js';
import { text } from './query.js';
import { checkChildren, checkCoordinates, checkStay, fail } from './rules.js';

export const PriceCompareInput = z
  .object({
    name: text(200).optional().describe('Property name to resolve, matched exactly (case, accents and punctuation aside); a name no property has is a 404 listing_not_found.'),
    googleHotelId: text(256).optional().describe('Precise id: a google search item\'s id as answered (stays_google_…) or its platformListingId; excludes name and location.'),
    location: text(200).optional().describe('Disambiguating place or "lat,lng"; accompanies name.'),
    checkIn: DateParam.describe('First night, YYYY-MM-DD.'),
    checkOut: DateParam.describe(`Day of departure, YYYY-MM-DD: after checkIn, at most ${MAX_STAY_NIGHTS} nights later.`),
    ...OccupancyFields,
    currency: Currency.default('USD'),
    maxCredits: MaxCredits,
    dryRun: DryRun,
  })
  .superRefine((v, ctx) => {
    if (v.googleHotelId && (v.name || v.location)) {
      fail(ctx, v.name ? 'name' : 'location', 'googleHotelId identifies the property on its own; do not combine it with name or location.', 'mutually_exclusive_params');
    } else if (!v.googleHotelId && !v.name) {
      fail(ctx, 'name', 'One of name or googleHotelId is required.', 'missing_parameter');
    }
    checkStay(ctx, v, true);
    checkChildren(ctx, v);
    checkCoordinates(ctx, 'location', v.location);
  });
export type PriceCompareInput = z.infer<typeof PriceCompareInput>;

export const PriceCompareOutput = envelope(PriceCompare).meta({ id: 'PriceCompareResponse' });
