import { z } from 'zod';

/**
 * Issue 25 item 4: the reviews' verdict. `basis: platform` is what the platform states about all
 * of the listing's reviews (whatever the filters); `sample` is computed over the reviews this
 * call read. A part neither gives is null, with a warning saying why.
 */
export const ReviewSummary = z
  .object({
    count: z.number().int().min(0).describe('Reviews summarised: the platform\'s total (basis platform) or the reviews read (basis sample).'),
    average: z.number().nullable().describe('Mean rating on ratingScale, as stated or computed (2 decimals); null when no review has a rating.'),
    ratingScale: z.union([z.literal(5), z.literal(10)]),
    histogram: z
      .array(z.object({ rating: z.number().int(), count: z.number().int().min(0) }))
      .nullable()
      .describe('Reviews per whole rating, highest first (a 10-scale rating counts at its nearest whole number); adds up to count. null when the platform states a total but no histogram.'),
    categories: z
      .array(z.object({ name: z.string(), score: z.number(), scale: z.number() }))
      .nullable()
      .describe('Category scores the platform states (cleanliness, location...); null when it states none (always for basis sample: reviews carry no category scores).'),
    byTripType: z
      .array(z.object({ tripType: z.string(), count: z.number().int().min(1), average: z.number().nullable() }))
      .nullable()
      .describe('Reviews and mean rating per trip type (couple, family, business...), most reviews first; null when no review read states one, or (basis platform) the platform states none.'),
    basis: z.enum(['platform', 'sample']),
  })
  .meta({ id: 'ReviewSummary' });
export type ReviewSummary = z.infer<typeof ReviewSummary>;
