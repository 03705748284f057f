import { z } from 'zod';
import { IsoDate, Platform } from './common.js';

export const CalendarDay = z
  .object({
    date: IsoDate,
    available: z.boolean(),
    minNights: z.number().int().nullable(),
    checkIn: z.boolean().nullable().describe('Check-in allowed on this date.'),
    checkOut: z.boolean().nullable().describe('Check-out allowed on this date.'),
    bookable: z.boolean().nullable(),
    nightlyPrice: z
      .number()
      .nullable()
      .describe('The night\'s price as the platform\'s calendar states it, in meta.currency, before fees and taxes; null when the calendar states none (a nightly_price_unavailable warning) or the night is not available.'),
  })
  .meta({ id: 'CalendarDay' });
export type CalendarDay = z.infer<typeof CalendarDay>;

export const AvailabilityItem = z
  .object({ platform: Platform, listingId: z.string(), dates: z.array(CalendarDay) })
  .meta({ id: 'AvailabilityItem' });
export type AvailabilityItem = z.infer<typeof AvailabilityItem>;
