import { z } from 'zod';
import { SUPPORTED_CURRENCIES } from '../../domain/currency.js';
import { isIsoDate } from '../../domain/dates.js';
import { Platform } from '../../domain/model/common.js';
import { itemPaths, unknownPaths } from '../../domain/shaping/projection.js';
import { csv, qBool, qInt, typedPreprocess } from './query.js';

export const MAX_STAY_NIGHTS = 365;
export const MAX_CHILDREN = 10;

export const DateParam = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date as YYYY-MM-DD')
  .refine(isIsoDate, { message: 'is not a calendar date', params: { subCode: 'invalid_date' } })
  .meta({ format: 'date' });

export const Currency = typedPreprocess((v) => (typeof v === 'string' ? v.trim().toUpperCase() : v), z.enum(SUPPORTED_CURRENCIES)).describe('ISO 4217 code of the prices returned (and of price filters).');

export const Adults = qInt(z.number().int().min(1).max(30)).default(2).describe('Adults staying (whole number, 1-30).');
export const Children = qInt(z.number().int().min(0).max(MAX_CHILDREN)).default(0).describe('Children staying; give one childAges entry per child.');
export const ChildAges = csv(qInt(z.number().int().min(0).max(17))).optional();
export const PlatformParam = Platform.describe('The platform of the listing; GET /v1/platforms lists what each serves for your key.');
/**
 * A listing id as text, or as a JSON number: MCP clients and the Inspector send numeric ids
 * (booking, vrbo, airbnb) as numbers. A whole number is taken as its decimal string, then checked
 * like any id; the JSON Schema says "string or integer". A number past 2^53 is refused: JSON
 * parsers have already rounded it, so it is not the id that was meant.
 */
function textOrWholeNumber(text: z.ZodString) {
  return z.union([text, z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).transform(String).pipe(text)], {
    error: 'must be the native id as text, or as a whole number from 0 to 9007199254740991',
  });
}
/**
 * How every listing parameter names the ids it takes, worded once: an agent passes exactly what
 * search answered, the item's `id` or its `platformListingId` (router/listing-ids/listing-ref.ts).
 */
export const LISTING_ID_FORMS = "A search item's id as answered (stays_<platform>_<native id>, with that platform) or the native id (its platformListingId), case-sensitive";
export const ListingIdParam = textOrWholeNumber(z.string().trim().min(1).max(256).regex(/^[^\s\u0000-\u001f]+$/, 'must not contain spaces or control characters'));
export const ListingIdOrUrlParam = textOrWholeNumber(z.string().trim().min(1).max(2048).regex(/^[^\s\u0000-\u001f]+$/, 'must not contain spaces or control characters'));

/**
 * Issue 16: the most this call may cost. A call whose largest possible cost is above it is refused
 * before any upstream work (402 max_credits_exceeded, free); a call within it never costs more.
 */
export const MaxCredits = qInt(z.number().int().min(0).max(1_000_000))
  .optional()
  .describe('The most this call may cost, in credits. If its worst case is higher the call is refused (402 max_credits_exceeded) before any platform is asked, free.');

/**
 * Issue 16: a free estimate of the call it is sent with. A flag on each billed operation rather
 * than a separate GET /v1/estimate: the estimate validates exactly the parameters the call would
 * (one schema, one set of 400s), is rate-limited by the same pipeline, and an agent prices the
 * very call it is about to make by adding one field.
 */
export const DryRun = qBool()
  .optional()
  .describe('true: answer with what this call would cost (worst case and likely, per platform, with cached legs and breaker state) instead of running it. Free, asks no platform; rate-limited like any call.');

/**
 * Issue 16: item fields by dotted path. Unknown paths are a 400 naming them, checked against the
 * item schema itself, before any upstream work. `example` is a list of the operation's own paths
 * (issue 34: one operation's example was another's, and refused); a test sends each as written.
 */
export function FieldsParam(item: z.ZodType, example: string) {
  const known = itemPaths(item);
  const bad = unknownPaths(known, example.split(','));
  if (bad.length > 0) throw new Error(`fields example names paths its items lack: ${bad.join(', ')}`);
  return csv(z.string().trim().min(1).max(100), 1)
    .superRefine((list, ctx) => {
      const bad = unknownPaths(known, list);
      if (bad.length > 0) ctx.addIssue({ code: 'custom', message: `unknown field path${bad.length > 1 ? 's' : ''} ${bad.map((b) => `"${b}"`).join(', ')}; known paths: ${known.join(', ')}` });
    })
    .optional()
    .describe(`Only these item fields, by dotted path (${example}); an array in JSON bodies, tRPC and MCP. Items then carry only these fields. Unknown paths are a 400 naming them.`);
}

/** Issue 16: the compact view, for models that pay per token (see compact.ts for what it drops). */
export const View = z
  .enum(['full', 'compact'])
  .default('full')
  .describe('compact: items without null or empty fields, with the first image only and no fee breakdown, and a short meta (cost, nextCursor, warnings, resolved, failed platforms). For agents that pay per token.');

/** Who is staying (spec 4.1 defaults: 2 adults, 0 children); shared by every stay-priced input. */
export const OccupancyFields = { adults: Adults, children: Children, childAges: ChildAges.describe('One age (0-17) per child.') };

/** The occupancy a verb takes, from any input carrying OccupancyFields. */
export function occupancyOf(input: { adults: number; children: number; childAges?: number[] | undefined }) {
  return { adults: input.adults, children: input.children, childAges: input.childAges ?? [] };
}
