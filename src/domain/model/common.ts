import { z } from 'zod';
import { PLATFORMS } from '../platforms.js';
import { ReviewSummary } from './review-summary.js';

export const Platform = z.enum(PLATFORMS).meta({ id: 'Platform', description: 'Booking platform identifier.' });

export const IsoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/).meta({ format: 'date', example: '2027-05-01' });

/**
 * Why a leg failed, as `platformResults[].error` tells the client (short, nothing internal).
 * `upstream_format_changed` is not worth retrying: the platform answered in a shape the service
 * cannot read until its parser is updated. The others may pass on a later try.
 */
export const LEG_ERRORS = ['upstream_error', 'upstream_blocked', 'upstream_timeout', 'upstream_format_changed', 'circuit_open'] as const;
export type LegError = (typeof LEG_ERRORS)[number];

export const Warning = z
  .object({
    code: z.string(),
    message: z.string(),
    platform: Platform.optional(),
  })
  .meta({ id: 'Warning', description: 'Something the client should know about the data: a filter applied after retrieval, a value that could not be extracted, no results.' });
export type Warning = z.infer<typeof Warning>;

export const LegStatus = z.enum(['ok', 'empty', 'failed', 'blocked', 'timeout']);
export type LegStatus = z.infer<typeof LegStatus>;

export const PlatformResult = z
  .object({
    platform: Platform,
    status: LegStatus,
    creditsCharged: z.number().int().min(0),
    cached: z.boolean(),
    count: z.number().int().min(0),
    error: z
      .enum(LEG_ERRORS)
      .optional()
      .describe('Why the leg failed, when it did. upstream_format_changed (the platform answered in a shape the service cannot read yet) is not worth retrying; upstream_error, upstream_blocked, upstream_timeout and circuit_open (the platform is failing and was not asked) may pass later.'),
  })
  .meta({ id: 'PlatformResult' });
export type PlatformResult = z.infer<typeof PlatformResult>;

export const Pagination = z
  .object({
    limit: z.number().int(),
    cursor: z.string().nullable(),
    nextCursor: z.string().nullable(),
    hasMore: z.boolean(),
  })
  .meta({ id: 'Pagination' });
export type Pagination = z.infer<typeof Pagination>;

/** A place as a platform understood a search's `location` (issue 16 item 1). */
export const ResolvedPlace = z
  .object({
    name: z.string(),
    region: z.string().nullable(),
    countryCode: z.string().describe('ISO 3166-1 alpha-2.'),
    lat: z.number(),
    lng: z.number(),
    radiusKm: z.number().nullable().describe('The radius searched around lat,lng, when the platform searches a circle; with a search radiusKm around this same point, the smaller of the two (the circle the items were kept in, as meta.resolved.area.radiusKm).'),
  })
  .meta({ id: 'ResolvedPlace' });
export type ResolvedPlace = z.infer<typeof ResolvedPlace>;

/** What the service understood the request to be about: the place searched, or the property matched. */
export const Resolved = z
  .object({
    location: ResolvedPlace.extend({
      query: z.string().describe('The location as sent (normalised).'),
      alternatives: z.array(ResolvedPlace).describe('Other places of the same name, likeliest first; retry with one of them as "lat,lng" (or "name, countryCode").'),
      byPlatform: z
        .array(ResolvedPlace.extend({ platform: Platform }))
        .describe('Platforms that resolved the location to another place than the one above; empty when all agree.'),
    })
      .optional(),
    property: z
      .object({ name: z.string(), address: z.string().nullable(), googleHotelId: z.string().nullable() })
      .optional()
      .describe('price-compare: the property the name (or googleHotelId) matched.'),
    area: z
      .object({
        centre: z.object({ lat: z.number(), lng: z.number() }).nullable().describe('What distanceKm is measured from: the "lat,lng" location, the bbox centre, or the place a platform located; null when none is known.'),
        radiusKm: z.number().nullable().describe('The radius asked for (radiusKm), or null.'),
        bbox: z.object({ swLat: z.number(), swLng: z.number(), neLat: z.number(), neLng: z.number() }).nullable().describe('The box asked for (bbox), or null.'),
      })
      .optional()
      .describe('search with radiusKm or bbox: the area searched (issue 25).'),
  })
  .meta({ id: 'Resolved' });
export type Resolved = z.infer<typeof Resolved>;

/** Issue 25 item 5: a stay of the asked length the calendar allows, with what its nights cost. */
export const CheapestStay = z
  .object({
    listingId: z.string().describe('The listing it is for (availability may ask for a batch).'),
    checkIn: IsoDate,
    checkOut: IsoDate,
    totalPrice: z.number().describe("Sum of the calendar's nightly prices for the stay, in meta.currency, before fees and taxes."),
  })
  .meta({ id: 'CheapestStay' });
export type CheapestStay = z.infer<typeof CheapestStay>;

export const Meta = z
  .object({
    requestId: z.string().regex(/^req_[0-9A-HJKMNP-TV-Z]{26}$/),
    platforms: z.array(Platform),
    cached: z.boolean(),
    partial: z.boolean(),
    creditsCharged: z.number().int().min(0),
    currency: z.string(),
    pagination: Pagination.nullable(),
    platformResults: z.array(PlatformResult),
    warnings: z.array(Warning),
    deduplicated: z.number().int().min(0).optional().describe('search: items folded into another item\'s alsoOn on this page (0 when none; absent with dedupe=false).'),
    cheapestStays: z
      .array(CheapestStay)
      .optional()
      .describe('availability with nights=N: up to 5 stays of exactly N nights the calendar allows (check-in and check-out flags and minimum stays respected, every night priced), cheapest first; [] with a warning when none can be priced. Absent without nights.'),
    resolved: Resolved.optional().describe('What the request was understood to be about (search: the place, and the radius or box searched; price-compare: the property). Absent when nothing said so: live searches name no place, as no recorded platform search answer names the place it searched.'),
    reviewSummary: ReviewSummary.optional().describe('reviews with summary=true: count, average, histogram, categories, the topics reviewers mention and figures per trip type, as the platform states them (basis platform) or computed over the reviews read (basis sample).'),
  })
  .meta({ id: 'Meta' });
export type Meta = z.infer<typeof Meta>;

/** `{ data, meta }`, the success envelope of spec 2.1. */
export function envelope<T extends z.ZodType>(data: T) {
  return z.object({ data, meta: Meta });
}
