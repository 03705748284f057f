import { getAvailability } from '../../domain/operations/availability.js';
import { COST_PLACEHOLDER } from '../../domain/billing/pricing.js';
import { authedProcedure, billedSteps } from '../procedure.js';
import { asyncAnswer } from '../jobs/async-answer.js';
import { operationEnv, settle } from '../billing/envelope.js';
import { AvailabilityInput, AvailabilityOutput } from '../schemas/availability.schema.js';
import { idFromUrl, idOrUrl } from '../listing-ids/listing-ref.js';

export const availability = authedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/availability',
      tags: ['Availability'],
      summary: 'Day-by-day availability',
      description: `Calendar for one listing or a batch on one platform, with each night's price where the platform's calendar states one (booking; airbnb states none: null with a nightly_price_unavailable warning). nights=N adds meta.cheapestStays: the cheapest stays of exactly N nights the calendar allows. ${COST_PLACEHOLDER} Asking for nights= costs nothing more.`,
    },
  })
  .input(AvailabilityInput)
  .use(billedSteps)
  .output(asyncAnswer(AvailabilityOutput))
  .query(async ({ ctx, input }) => {
    const listingIds = input.listingIds
      ? input.listingIds.map((id, index) => idOrUrl(input.platform, id, { param: 'listingIds', index }))
      : [input.listingId ? idOrUrl(input.platform, input.listingId, 'listingId') : idFromUrl(input.platform, input.url!)];
    const result = await getAvailability(operationEnv(ctx), {
      platform: input.platform,
      listingIds,
      startDate: input.startDate,
      endDate: input.endDate,
      onlyAvailable: input.onlyAvailable,
      currency: input.currency,
      nights: input.nights ?? null,
      idParam: input.listingIds ? 'listingIds' : input.listingId ? 'listingId' : 'url',
    });
    return settle(ctx, result);
  });
