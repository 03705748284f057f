/** Answers cut down by `fields` or `view=compact` (issue 16), as the API documents and validates them. */
import { z } from 'zod';
import { Meta, Platform, PlatformResult, Resolved, Warning } from './common.js';
import { Fees, Host, Location, Property, StayPrice } from './property.js';
import { PriceContext, RateOffer } from './rates.js';
import { Review } from './review.js';
import { ReviewMention, ReviewSummary } from './review-summary.js';

// Nested objects may be cut down too (fields=price.totalPrice; the compact view's location and price).
export const ShapedItem = z
  .object(Property.shape)
  .extend({
    image: z.string(),
    location: z.object(Location.shape).partial().strict(),
    price: z
      .object(StayPrice.shape)
      .extend({ offers: z.array(RateOffer.partial().strict()), context: PriceContext.partial().strict().nullable(), fees: z.object(Fees.shape).partial().strict() })
      .partial()
      .strict()
      .nullable(),
    host: z.object(Host.shape).partial().strict().nullable(),
    alsoOn: z.array(Property.shape.alsoOn.unwrap().element.partial().strict()),
    reviewSummary: z.object(ReviewSummary.shape).extend({ mentions: z.array(ReviewMention.partial().strict()).nullable() }).partial().strict().nullable(),
  })
  .partial()
  .strict()
  .meta({ id: 'ShapedItem', description: 'An item cut down by fields= or view=compact: any field may be missing.' });
/** A review cut down by `fields`: only the paths asked for. */
export const ShapedReview = z.object(Review.shape).partial().strict().meta({ id: 'ShapedReview', description: 'A review with only the fields asked for.' });

// The compact view drops null and empty values everywhere, meta.resolved included (the places
// listed in alternatives and byPlatform too, and either list when it is empty).
const ResolvedLocation = Resolved.shape.location.unwrap();
const ShapedResolved = z
  .object({
    location: ResolvedLocation.extend({
      alternatives: z.array(ResolvedLocation.shape.alternatives.element.partial()),
      byPlatform: z.array(ResolvedLocation.shape.byPlatform.element.partial()),
    }).partial(),
    property: Resolved.shape.property.unwrap().partial(),
    area: Resolved.shape.area.unwrap().partial(),
  })
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
  .strict()
  .meta({ id: 'ShapedMeta' });

/** An envelope cut down by `fields` or `view=compact`: items keep only what was asked for. */
export const ShapedAnswer = z
  .object({
    data: z.union([z.array(ShapedItem), ShapedItem]),
    meta: ShapedMeta,
  })
  .describe('With fields= or view=compact: the same envelope, items holding only the fields asked for (view=compact: see the compact view), and for view=compact a short meta.')
  .meta({ id: 'ShapedAnswer' });

