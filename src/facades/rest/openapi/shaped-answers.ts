import { z } from 'zod';
import { Meta, Platform, PlatformResult, Resolved, Warning } from '../../../domain/model/common.js';
import { Host, Location, Property, StayPrice } from '../../../domain/model/property.js';
import { EstimateView } from '../../../domain/model/estimate.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The answer of `dryRun=true` (issue 16). */
export const EstimateAnswer = z
  .object({ data: EstimateView, meta: z.object({ requestId: z.string(), creditsCharged: z.literal(0), platforms: z.array(Platform) }) })
  .meta({ id: 'EstimateAnswer' });

// Nested objects may be cut down too (fields=price.totalPrice; the compact view's location and price).
const ShapedItem = z
  .object(Property.shape)
  .extend({
    image: z.string(),
    location: z.object(Location.shape).partial().strict(),
    price: z.object(StayPrice.shape).partial().strict().nullable(),
    host: z.object(Host.shape).partial().strict().nullable(),
    alsoOn: z.array(Property.shape.alsoOn.unwrap().element.partial().strict()),
  })
  .partial()
  .strict();
// The compact view drops null and empty values everywhere, meta.resolved included.
const ShapedResolved = z
  .object({ location: Resolved.shape.location.unwrap().partial(), property: Resolved.shape.property.unwrap().partial() })
  .partial();
const GroupedWarning = z.object({ code: z.string(), platforms: z.array(Platform).optional() }).strict();

/** An envelope cut down by `fields` or `view=compact`: items keep only what was asked for. */
export const ShapedAnswer = z
  .object({
    data: z.union([z.array(ShapedItem), ShapedItem]),
    meta: z
      .object(Meta.shape)
      .partial()
      .extend({
        requestId: Meta.shape.requestId,
        nextCursor: z.string(),
        failedPlatforms: z.array(PlatformResult),
        warnings: z.array(z.union([Warning, GroupedWarning])),
        resolved: ShapedResolved,
      })
      .partial({ nextCursor: true, failedPlatforms: true, warnings: true, resolved: true })
      .strict(),
  })
  .describe('With fields= or view=compact: the same envelope, items holding only the fields asked for (view=compact: see the compact view), and for view=compact a short meta.')
  .meta({ id: 'ShapedAnswer' });

/**
 * The 200 of a billed operation is its envelope, or (dryRun) the estimate, or (fields, view) the
 * shaped envelope: documented as anyOf so a client validating answers accepts all three.
 */
export function withShapedAnswers(ok: Json, shaped: boolean): void {
  const content = ok.content?.['application/json'];
  if (!content?.schema) return;
  content.schema = { anyOf: [content.schema, { $ref: '#/components/schemas/EstimateAnswer' }, ...(shaped ? [{ $ref: '#/components/schemas/ShapedAnswer' }] : [])] };
}
