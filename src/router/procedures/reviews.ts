import { getReviews } from '../../domain/operations/reviews.js';
import { COST_PLACEHOLDER } from '../../domain/billing/pricing.js';
import { authedProcedure, shapeableBilledSteps } from '../procedure.js';
import { shapeableAnswer } from '../jobs/async-answer.js';
import { operationEnv, settle } from '../billing/envelope.js';
import { ReviewsInput, ReviewsOutput } from '../schemas/reviews.schema.js';
import { idFromUrl, idOrUrl } from '../listing-ids/listing-ref.js';

export const reviews = authedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/reviews',
      tags: ['Reviews'],
      summary: 'Listing reviews',
      description:
        'Normalised, paginated reviews of one listing. q= keeps reviews mentioning a word (title, text, liked, disliked; case-insensitive). ' +
        'summary=true adds meta.reviewSummary: the platform\'s own count, average, histogram, category scores and topics mentioned where it states them (basis platform), else figures computed over the reviews read (basis sample, with byTripType); a missing part is null with a warning. ' +
        `${COST_PLACEHOLDER} A summary costs nothing more.`,
    },
  })
  .input(ReviewsInput)
  .use(shapeableBilledSteps)
  .output(shapeableAnswer(ReviewsOutput))
  .query(async ({ ctx, input }) => {
    const result = await getReviews(operationEnv(ctx), {
      platform: input.platform,
      listingId: input.listingId ? idOrUrl(input.platform, input.listingId, 'listingId') : idFromUrl(input.platform, input.url!),
      limit: input.limit,
      cursor: input.cursor ?? null,
      language: input.language ?? null,
      minRating: input.minRating ?? null,
      q: input.q ?? null,
      summary: input.summary ?? false,
      sort: input.sort,
      idParam: input.listingId ? 'listingId' : 'url',
    });
    return settle(ctx, result);
  });
