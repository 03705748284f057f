import { z } from 'zod';
import { Property } from '../../domain/model/property.js';
import { envelope } from '../../domain/model/common.js';
import { OccupancyFields, Currency, DateParam, LISTING_ID_FORMS, ListingIdParam, PlatformParam, MaxCredits, DryRun, FieldsParam, View } from './common-input.js';
import { checkChildren, checkStay } from './rules.js';

export const ListingInput = z
  .object({
    platform: PlatformParam,
    id: ListingIdParam.describe(`${LISTING_ID_FORMS}.`),
    checkIn: DateParam.optional(),
    checkOut: DateParam.optional(),
    ...OccupancyFields,
    currency: Currency.default('USD'),
    maxCredits: MaxCredits,
    dryRun: DryRun,
    fields: FieldsParam(Property),
    view: View,
  })
  .superRefine((v, ctx) => {
    checkStay(ctx, v, false);
    checkChildren(ctx, v);
  });
export type ListingInput = z.infer<typeof ListingInput>;

export const ListingOutput = envelope(Property).meta({ id: 'ListingResponse' });
