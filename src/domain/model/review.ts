import { z } from 'zod';
import { IsoDate, Platform } from './common.js';

export const Review = z
  .object({
    platform: Platform,
    listingId: z.string(),
    reviewId: z.string(),
    rating: z.number().nullable(),
    ratingScale: z.union([z.literal(5), z.literal(10)]),
    title: z.string().nullable().describe('null on platforms whose reviews have no title (airbnb, google).'),
    text: z.string().nullable().describe('The review text; null when the review has none (a rating-only review) or the platform sent none.'),
    author: z.string().nullable(),
    date: IsoDate,
    tripType: z
      .string()
      .nullable()
      .describe('The trip as the platform states it: booking\'s traveller type (family, couple, solo, friends, business), google\'s trip_type ("Vacation", "Business"), airbnb\'s trip label ("Group trip", "Stayed with kids"); null when the review states none.'),
    language: z.string().nullable().describe('ISO-639-1; null when the platform does not know it.'),
    locale: z
      .string()
      .nullable()
      .describe('The full BCP 47 tag the platform states ("zh-TW", "en-GB", or just "fr"); `language` is its ISO 639-1 part. null when the platform states none.'),
    ownerResponse: z.string().nullable(),
    liked: z.string().nullable(),
    disliked: z.string().nullable(),
  })
  .meta({ id: 'Review' });
export type Review = z.infer<typeof Review>;

export { ReviewSummary } from './review-summary.js';
