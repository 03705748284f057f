import { idOrUrl } from '../listing-ids/listing-ref.js';
import { COST_PLACEHOLDER } from '../../domain/billing/pricing.js';
import { getListing } from '../../domain/operations/listing.js';
import { authedProcedure, shapeableBilledSteps } from '../procedure.js';
import { shapeableAnswer } from '../jobs/async-answer.js';
import { occupancyOf } from '../schemas/common-input.js';
import { operationEnv, settle } from '../billing/envelope.js';
import { ListingInput, ListingOutput } from '../schemas/listing.schema.js';

export const listing = authedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/listing/{platform}/{id}',
      tags: ['Listings'],
      summary: 'Listing detail',
      description: `The full normalised listing; with checkIn and checkOut a price for the stay is embedded. nearby lists the places the platform names near it (name, kind, great-circle distanceKm, travel times by mode), or is null with a warning where the platform names none. reviewSummary is the reviews' verdict as the listing states it (count, average, histogram, category scores, mentions: the topics reviewers talk about and how), each part it does not state null with a warning. ${COST_PLACEHOLDER}`,
    },
  })
  .input(ListingInput)
  .use(shapeableBilledSteps)
  .output(shapeableAnswer(ListingOutput))
  .query(async ({ ctx, input }) => {
    const result = await getListing(operationEnv(ctx), {
      platform: input.platform,
      id: idOrUrl(input.platform, input.id, 'id'),
      checkIn: input.checkIn ?? null,
      checkOut: input.checkOut ?? null,
      occupancy: occupancyOf(input),
      currency: input.currency,
    });
    return settle(ctx, result);
  });
