import { z } from 'zod';
import { Platform } from './common.js';

/** The answer of `dryRun=true` (issue 16): what the call would cost, in credits, free. */
export const EstimateView = z
  .object({
    dryRun: z.literal(true),
    worstCaseCredits: z.number().int().describe('The most the call can cost; the figure checked against maxCredits and the balance.'),
    likelyCredits: z.number().int().describe('Cached legs at their cached count, legs behind an open breaker at 0, others at their worst case.'),
    maxCredits: z.number().int().nullable(),
    withinMaxCredits: z.boolean(),
    platforms: z.array(
      z.object({
        platform: Platform,
        worstCaseCredits: z.number().int(),
        likelyCredits: z.number().int(),
        cached: z.boolean(),
        breaker: z.enum(['closed', 'open', 'half_open', 'none']).describe('none: sandbox keys, which have no breakers.'),
      }),
    ),
  })
  .meta({ id: 'Estimate' });
export type EstimateView = z.infer<typeof EstimateView>;
