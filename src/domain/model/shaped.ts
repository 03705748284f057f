/** Answers cut down by `fields` or `view=compact` (issue 16), as the API documents and validates them. */
import { z } from 'zod';
import { Meta, Platform, PlatformResult, Resolved, Warning } from './common.js';
import { Host, Location, Property, StayPrice } from './property.js';

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
  .object({ location: Resolved.shape.location.unwrap().partial(), property: Resolved.shape.property.unwrap().partial(), area: Resolved.shape.area.unwrap().partial() })
  .partial();
const GroupedWarning = z.object({ code: z.string(), platforms: z.array(Platform).optional() }).strict();

/** The meta of a `view=compact` answer: a short form, without per-leg lines of legs that answered. */
export const ShapedMeta = z
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
  .strict();

/** An envelope cut down by `fields` or `view=compact`: items keep only what was asked for. */
export const ShapedAnswer = z
  .object({
    data: z.union([z.array(ShapedItem), ShapedItem]),
    meta: ShapedMeta,
  })
  .describe('With fields= or view=compact: the same envelope, items holding only the fields asked for (view=compact: see the compact view), and for view=compact a short meta.')
  .meta({ id: 'ShapedAnswer' });

