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
      description: `Normalised, paginated reviews of one listing. ${COST_PLACEHOLDER}`,
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
      sort: input.sort,
      idParam: input.listingId ? 'listingId' : 'url',
    });
    return settle(ctx, result);
  });
