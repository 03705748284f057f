import { comparePrices } from '../../domain/operations/price-compare.js';
import { COST_PLACEHOLDER } from '../../domain/billing/pricing.js';
import { authedProcedure, billedSteps } from '../procedure.js';
import { asyncAnswer } from '../jobs/async-answer.js';
import { occupancyOf } from '../schemas/common-input.js';
import { operationEnv, settle } from '../billing/envelope.js';
import { nativeOfComposite } from '../listing-ids/listing-ref.js';
import { PriceCompareInput, PriceCompareOutput } from '../schemas/price-compare.schema.js';

export const priceCompare = authedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/price-compare',
      tags: ['Prices'],
      summary: 'Cross-OTA price comparison',
      description: `Offers for one property across OTAs, resolved through Google Hotels; min and median computed by the service. ${COST_PLACEHOLDER}`,
    },
  })
  .input(PriceCompareInput)
  .use(billedSteps)
  .output(asyncAnswer(PriceCompareOutput))
  .query(async ({ ctx, input }) => {
    const result = await comparePrices(operationEnv(ctx), {
      name: input.name ?? null,
      googleHotelId: input.googleHotelId ? nativeOfComposite('google', input.googleHotelId, 'googleHotelId') : null,
      location: input.location ?? null,
      checkIn: input.checkIn,
      checkOut: input.checkOut,
      occupancy: occupancyOf(input),
      currency: input.currency,
    });
    return settle(ctx, result);
  });
