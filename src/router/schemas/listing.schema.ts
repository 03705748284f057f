import { z } from 'zod';
import { ListingFields, Property } from '../../domain/model/property.js';
import { envelope } from '../../domain/model/common.js';
import { OccupancyFields, Currency, DateParam, ListingIdParam, PlatformParam, MaxCredits, DryRun, FieldsParam, View, MAX_STAY_NIGHTS, LISTING_ID_FORMS } from './common-input.js';
import { checkChildren, checkStay } from './rules.js';

export const ListingInput = z
  .object({
    platform: PlatformParam,
    id: ListingIdParam.describe(`${LISTING_ID_FORMS}.`),
    checkIn: DateParam.optional().describe('First night, YYYY-MM-DD, with checkOut: the answer then embeds a price for that stay.'),
    checkOut: DateParam.optional().describe(`Day of departure, YYYY-MM-DD, with checkIn: after it, at most ${MAX_STAY_NIGHTS} nights later.`),
    ...OccupancyFields,
    currency: Currency.default('USD'),
    maxCredits: MaxCredits,
    dryRun: DryRun,
    fields: FieldsParam(ListingFields, 'id,name,price.totalPrice,reviewSummary.average,nearby.name'),
    view: View,
  })
  .superRefine((v, ctx) => {
    checkStay(ctx, v, false);
    checkChildren(ctx, v);
  });
export type ListingInput = z.infer<typeof ListingInput>;

export const ListingOutput = envelope(Property).meta({ id: 'ListingResponse' });
