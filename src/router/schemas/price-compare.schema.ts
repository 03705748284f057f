import { z } from 'zod';
import { PriceCompare } from '../../domain/model/price.js';
import { envelope } from '../../domain/model/common.js';
import { OccupancyFields, Currency, DateParam, MaxCredits, DryRun } from './common-input.js';
import { text } from './query.js';
import { checkChildren, checkCoordinates, checkStay, fail } from './rules.js';

export const PriceCompareInput = z
  .object({
    name: text(200).optional().describe('Property name to resolve, matched exactly (case, accents and punctuation aside); a name no property has is a 404 listing_not_found.'),
    googleHotelId: text(256).optional().describe('Precise id; excludes name and location.'),
    location: text(200).optional().describe('Disambiguating place or "lat,lng"; accompanies name.'),
    checkIn: DateParam,
    checkOut: DateParam,
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
