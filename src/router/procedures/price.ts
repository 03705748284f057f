import { getPrice } from '../../domain/operations/price.js';
import { COST_PLACEHOLDER } from '../../domain/billing/pricing.js';
import { authedProcedure, billedSteps } from '../procedure.js';
import { asyncAnswer } from '../jobs/async-answer.js';
import { occupancyOf } from '../schemas/common-input.js';
import { operationEnv, settle } from '../billing/envelope.js';
import { PriceInput, PriceOutput } from '../schemas/price.schema.js';
import { idOrUrl } from '../listing-ids/listing-ref.js';

export const price = authedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/price',
      tags: ['Prices'],
      summary: 'Price quote',
      description: `Price for one listing and stay, with fees line by line (fees.items) and the occupancy echoed; price.basis says whether totalPrice is all_in, before_taxes or unknown. offers lists the rooms and rates (board, refundable, freeCancellationUntil, payment), cheapest first; the top-level price is the platform's headline (booking: the rate its search shows; google: the cheapest OTA total; airbnb: the listing's one rate; sandbox: the cheapest offer). context: low, typical or high against the platform's typical range (google), else null with price_context_unavailable. ${COST_PLACEHOLDER}`,
    },
  })
  .input(PriceInput)
  .use(billedSteps)
  .output(asyncAnswer(PriceOutput))
  .query(async ({ ctx, input }) => {
    const result = await getPrice(operationEnv(ctx), {
      platform: input.platform,
      listingId: idOrUrl(input.platform, input.listingId, 'listingId'),
      checkIn: input.checkIn,
      checkOut: input.checkOut,
      occupancy: occupancyOf(input),
      currency: input.currency,
    });
    return settle(ctx, result);
  });
