import { z } from 'zod';

/** One topic reviewers talk about, and how (Google Hotels' `reviews_breakdown`). */
export const ReviewMention = z
  .object({
    topic: z.string().describe('What the reviews speak of, as the platform names it ("Service", "Bathroom and toiletries", "Public transit").'),
    mentioned: z.number().int().min(0).describe('Reviews that mention the topic.'),
    positive: z.number().int().min(0).describe('Of those, the ones that speak well of it.'),
    negative: z.number().int().min(0).describe('Of those, the ones that speak ill of it.'),
    neutral: z.number().int().min(0).describe('Of those, the ones that are neither.'),
  })
  .meta({ id: 'ReviewMention' });
export type ReviewMention = z.infer<typeof ReviewMention>;

/**
 * Issue 25 item 4: the reviews' verdict. `basis: platform` is what the platform states about all
 * of the listing's reviews (whatever the filters); `sample` is computed over the reviews this
 * call read; the listing detail carries the platform's. A part neither gives is null, with a warning saying why.
 */
export const ReviewSummary = z
  .object({
    count: z.number().int().min(0).describe('Reviews summarised: the platform\'s total (basis platform) or the reviews read (basis sample). A platform may count more than it serves (its newest only): paging then reads fewer than a basis-platform count, and a reviews_truncated warning states how many it reads.'),
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
    mentions: z
      .array(ReviewMention)
      .nullable()
      .optional()
      .describe('What reviewers talk about and how: per topic, the reviews that mention it and how many of them speak well, ill or neither of it, as the platform counts them (google states them), most mentioned first. null, with a warning, when the platform states none (always for basis sample).'),
    basis: z.enum(['platform', 'sample']),
  })
  .meta({ id: 'ReviewSummary' });
export type ReviewSummary = z.infer<typeof ReviewSummary>;
