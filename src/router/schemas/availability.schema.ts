import { z } from 'zod';
import { AvailabilityItem } from '../../domain/model/availability.js';
import { envelope } from '../../domain/model/common.js';
import { MAX_BATCH_LISTINGS } from '../../domain/operations/availability.js';
import { Currency, DateParam, LISTING_ID_FORMS, ListingIdParam, PlatformParam, MaxCredits, DryRun } from './common-input.js';
import { csv, qBool, qInt } from './query.js';
import { MAX_CHEAPEST_STAYS, STAY_NIGHTS } from '../../domain/rates/cheapest-stays.js';
import { checkExactlyOne, fail } from './rules.js';
import { daysBetween } from '../../domain/dates.js';

export const AvailabilityInput = z
  .object({
    platform: PlatformParam,
    listingId: ListingIdParam.optional().describe(`${LISTING_ID_FORMS}.`),
    listingIds: csv(ListingIdParam).optional().describe(`Batch of up to ${MAX_BATCH_LISTINGS} ids on one platform, each in either form of listingId.`),
    url: z.string().max(2048).optional().describe('Full listing URL of the platform; parsed, never fetched.'),
    startDate: DateParam.describe('First day of the calendar, YYYY-MM-DD.'),
    endDate: DateParam.describe('Day after the last day of the calendar, YYYY-MM-DD (exclusive, like a check-out): after startDate.'),
    onlyAvailable: qBool().default(false).describe('true: dates[] keeps only the days that can be booked (available true); billing is unchanged.'),
    currency: Currency.default('USD').describe('ISO 4217 code of the calendar\'s nightly prices (dates[].nightlyPrice, meta.cheapestStays).'),
    nights: qInt(z.number().int().min(STAY_NIGHTS.min).max(STAY_NIGHTS.max))
      .optional()
      .describe(`Stay length, ${STAY_NIGHTS.min}-${STAY_NIGHTS.max} nights: meta.cheapestStays lists up to ${MAX_CHEAPEST_STAYS} stays of exactly that length the calendar allows (check-in and check-out flags and minimum stays respected), cheapest first, priced from the calendar's nightly prices.`),
    maxCredits: MaxCredits,
    dryRun: DryRun,
  })
  .superRefine((v, ctx) => {
    checkExactlyOne(ctx, v, ['listingId', 'listingIds', 'url']);
    if (v.listingIds && (v.listingIds.length === 0 || v.listingIds.length > MAX_BATCH_LISTINGS)) {
      fail(ctx, 'listingIds', `listingIds takes 1 to ${MAX_BATCH_LISTINGS} ids.`);
    }
    if (daysBetween(v.startDate, v.endDate) < 1) fail(ctx, 'endDate', 'endDate must be after startDate.', 'invalid_request', 'date_order');
  });
export type AvailabilityInput = z.infer<typeof AvailabilityInput>;

export const AvailabilityOutput = envelope(z.array(AvailabilityItem)).meta({ id: 'AvailabilityResponse' });
