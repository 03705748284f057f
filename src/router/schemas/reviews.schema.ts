import { z } from 'zod';
import { Review } from '../../domain/model/review.js';
import { envelope } from '../../domain/model/common.js';
import { REVIEW_SORTS } from '../../domain/ports/platform.js';
import { LISTING_ID_FORMS, ListingIdParam, PlatformParam, MaxCredits, DryRun, FieldsParam } from './common-input.js';
import { optionalText, qBool, qInt, qNum, text, typedPreprocess } from './query.js';
import { checkExactlyOne } from './rules.js';

export const REVIEWS_LIMIT = { min: 1, max: 100, default: 20 } as const;

export const ReviewsInput = z
  .object({
    platform: PlatformParam,
    listingId: ListingIdParam.optional().describe(`${LISTING_ID_FORMS}; or a listing URL of the platform.` + ' For google, not a search item\'s id (a Hotels property token) but the property\'s Google Maps place id (ChIJ…): google reviews are Google Maps reviews.'),
    url: z.string().max(2048).optional().describe('Full listing URL of the platform; parsed, never fetched.'),
    limit: qInt(z.number().int().min(REVIEWS_LIMIT.min).max(REVIEWS_LIMIT.max)).default(REVIEWS_LIMIT.default)
      .describe(`Reviews per page, ${REVIEWS_LIMIT.min}-${REVIEWS_LIMIT.max} (default ${REVIEWS_LIMIT.default}); billed per started block of 20 read.`),
    cursor: optionalText(2048).describe('meta.pagination.nextCursor of the previous page, verbatim; with the same other parameters.'),
    language: typedPreprocess((v) => (typeof v === 'string' ? v.trim().toLowerCase() : v), z.string().regex(/^[a-z]{2}$/, 'must be an ISO-639-1 code')).optional()
      .describe('ISO 639-1 code, case-insensitive ("en" and "EN" are the same); matched against each review\'s `language`.'),
    minRating: qNum(z.number().min(0).max(10)).optional().describe("On the platform's native rating scale."),
    q: text(100).optional().describe('Only reviews whose title, text, liked or disliked contain this, case-insensitively ("noise").'),
    summary: qBool().optional().describe('true: add meta.reviewSummary (count, average, histogram, categories, mentions, byTripType, basis): the platform\'s own figures where it states them (basis platform, no extra cost), else computed over the reviews read (basis sample). Billing is unchanged.'),
    sort: z.enum(REVIEW_SORTS).default('recent').describe('recent (newest first), rating_desc or rating_asc.'),
    maxCredits: MaxCredits,
    dryRun: DryRun,
    fields: FieldsParam(Review, 'reviewId,rating,text,date'),
  })
  .superRefine((v, ctx) => checkExactlyOne(ctx, v, ['listingId', 'url']));
export type ReviewsInput = z.infer<typeof ReviewsInput>;

export const ReviewsOutput = envelope(z.array(Review)).meta({ id: 'ReviewsResponse' });
