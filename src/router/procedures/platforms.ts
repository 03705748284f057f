import { z } from 'zod';
import { capabilityMatrix } from '../../domain/capabilities.js';
import { Meta, Platform } from '../../domain/model/common.js';
import { OPERATIONS } from '../../domain/platforms.js';
import { requestWarnings } from '../billing/envelope.js';
import { authedProcedure } from '../procedure.js';

export const PlatformsOutput = z
  .object({
    data: z.object({
      keyKind: z.enum(['live', 'sandbox']).describe('The kind of the calling key; the matrix is the one it is served by.'),
      platforms: z.array(
        z
          .object({ platform: Platform, operations: z.array(z.enum(OPERATIONS)).describe('Operations this platform serves for this key kind; empty when it serves none.') })
          .meta({ id: 'PlatformCapability' }),
      ),
    }),
    meta: Meta.pick({ requestId: true, creditsCharged: true, warnings: true }),
  })
  .meta({ id: 'PlatformsResponse' });

/**
 * Platform honesty (issue: the enum offers seven platforms, live keys serve four): the capability
 * matrix of the caller's key kind, from the adapters that serve it. Free, never 202.
 */
export const platforms = authedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/platforms',
      tags: ['Account'],
      summary: 'What each platform serves for this key',
      description:
        'The capability matrix for the calling key kind: for each platform, the operations it serves (search, availability, listing, price, priceCompare = /price-compare, reviews). ' +
        'Sandbox keys serve the whole matrix; live keys what each live adapter serves. Asking a platform for an operation it does not serve answers 400 platform_not_supported. Free.',
    },
  })
  .input(z.object({}).optional())
  .output(PlatformsOutput)
  .query(({ ctx }) => ({
    data: { keyKind: ctx.principal.env, platforms: capabilityMatrix(ctx.deps.platforms[ctx.principal.env]) },
    meta: { requestId: ctx.requestId, creditsCharged: 0, warnings: requestWarnings(ctx) },
  }));
