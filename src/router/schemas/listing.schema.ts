import { z } from 'zod';
import { ListingFields, Property } from '../../domain/model/property.js';
import { envelope } from '../../domain/model/common.js';
import { OccupancyFields, Currency, DateParam, ListingIdParam, PlatformParam, MaxCredits, DryRun, FieldsParam, View } from './common-input.js';
import { checkChildren, checkStay } from './rules.js';

export const ListingInput = z
  .object({
    platform: PlatformParam,
    id: ListingIdParam.describe('Native listing id, case-sensitive, verbatim.'),
    checkIn: DateParam.optional(),
    checkOut: DateParam.optional(),
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
