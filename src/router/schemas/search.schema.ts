import { z } from 'zod';
import { SEARCH_SORTS } from '../../domain/operations/merge.js';
import { Property, PropertyType, Amenity, SearchItemFields } from '../../domain/model/property.js';
import { BOARDS } from '../../domain/model/rates.js';
import { envelope } from '../../domain/model/common.js';
import { Platform } from '../../domain/model/common.js';
import { OccupancyFields, Currency, DateParam, MaxCredits, DryRun, FieldsParam, View, occupancyOf } from './common-input.js';
import type { SearchParams } from '../../domain/operations/search.js';
import { csv, optionalText, qBool, qInt, qNum, text } from './query.js';
import { checkArea, checkChildren, checkCoordinates, checkStay, fail } from './rules.js';
import { RADIUS_KM } from '../../domain/geo/area.js';
import { deepFreeze } from '../../domain/caching/page-memo.js';

export const SEARCH_LIMIT = { min: 1, max: 100, default: 20 } as const;

export const SearchFields = z.object({
  // Place names are case- and spacing-insensitive: normalised here, so cache keys, cursors and jobs agree.
  location: text(200)
    .overwrite((v) => v.replace(/\s+/g, ' ').toLowerCase())
    .optional()
    .describe('Place name ("Lisbon") or "lat,lng". Required unless bbox is given; not with bbox.'),
  radiusKm: qNum(z.number().min(RADIUS_KM.min).max(RADIUS_KM.max))
    .optional()
    .describe('Only items within this many km (0.1 to 100, great-circle) of the location: "lat,lng", or a place name where the platform states its coordinates. Not with bbox.'),
  bbox: text(120)
    .optional()
    .describe('"swLat,swLng,neLat,neLng": only items inside this box (south-west corner, then north-east corner; west east of east crosses the antimeridian). Instead of location; distances are measured from its centre.'),
  checkIn: DateParam.optional().describe('First night, YYYY-MM-DD; required with checkOut and for any price filter or sort; not in the past.'),
  checkOut: DateParam.optional().describe('Departure day, YYYY-MM-DD; required with checkIn; 1 to 365 nights after it.'),
  ...OccupancyFields,
  rooms: qInt(z.number().int().min(1).max(10)).default(1).describe('Rooms or units wanted.'),
  propertyType: csv(PropertyType).optional().describe('Keep only these property types.'),
  amenities: csv(Amenity).optional().describe('Keep only properties with every one of these amenities.'),
  minBedrooms: qInt(z.number().int().min(0).max(20)).optional().describe('At least this many bedrooms.'),
  priceMin: qNum(z.number().min(0)).optional().describe("Only items whose price.nightlyPrice (the accommodation subtotal per night, before fees and taxes, whatever the price's basis) is at least this, in the requested currency; needs dates."),
  priceMax: qNum(z.number().min(0)).optional().describe('Only items whose price.nightlyPrice is at most this; as priceMin.'),
  minGuestRating: qNum(z.number().min(0).max(10)).optional().describe("Compared on each property's native rating scale."),
  refundable: qBool()
    .optional()
    .describe('true: only stays with a refundable offer (false: a non-refundable one); needs dates. Applied where the platform states terms in its search (sandbox, booking); an item whose terms are unknown is kept, with an offer_terms_unknown warning, never dropped for what its platform did not say.'),
  board: z
    .enum(BOARDS)
    .optional()
    .describe('Only stays with an offer of at least this board (breakfast is also met by half_board, full_board and all_inclusive); needs dates. Same rule for unknown terms as refundable.'),
  platforms: csv(Platform, 1).optional().describe('Platforms to ask. Default: every platform that serves search for your key (GET /v1/platforms).'),
  limit: qInt(z.number().int().min(SEARCH_LIMIT.min).max(SEARCH_LIMIT.max)).default(SEARCH_LIMIT.default).describe('Items per page, 1-100.'),
  cursor: optionalText(2048).describe('meta.pagination.nextCursor of the previous page, with the same other parameters.'),
  sort: z
    .enum(SEARCH_SORTS)
    .default('recommended')
    .describe(
      'price_asc / price_desc order by price.totalPrice as each platform states it, on its price.basis (all_in, before_taxes or unknown), and need checkIn and checkOut; ' +
        'a page mixing bases carries a price_basis_mixed warning. rating_desc orders by guestRating as a share of its scale. ' +
        'distance_asc orders by distanceKm from the centre searched, items without one last.',
    ),
  currency: Currency.default('USD'),
  dedupe: qBool().default(true).describe('false: list the same home once per platform. true (default): items judged the same property (within 50 m, similar name, same bedrooms and guests) are folded into the one the sort puts first, the others listed in its alsoOn; meta.deduplicated counts them. Within a page.'),
  maxCredits: MaxCredits,
  dryRun: DryRun,
  fields: FieldsParam(SearchItemFields, 'id,name,price.totalPrice,guestRating,distanceKm'),
  view: View,
});

export const SearchInput = SearchFields.superRefine((v, ctx) => {
  checkStay(ctx, v, false);
  checkChildren(ctx, v);
  checkCoordinates(ctx, 'location', v.location);
  checkArea(ctx, v);
  if (v.priceMin !== undefined && v.priceMax !== undefined && v.priceMax < v.priceMin) {
    fail(ctx, 'priceMax', 'priceMax must be at least priceMin.');
  }
  const needsDates = v.priceMin !== undefined ? 'priceMin' : v.priceMax !== undefined ? 'priceMax' : v.sort.startsWith('price') ? 'sort' : v.refundable !== undefined ? 'refundable' : v.board !== undefined ? 'board' : null;
  if (needsDates && !v.checkIn) {
    fail(ctx, needsDates, 'Prices and their terms exist only for a stay: give checkIn and checkOut to filter or sort by price, refundable or board.', 'invalid_request', 'dates_required');
  }
});
export type SearchInput = z.infer<typeof SearchInput>;

export const SearchOutput = envelope(z.array(Property)).meta({ id: 'SearchResponse' });

/**
 * Fields the search itself does not read as they come: the pipeline's (cost controls, shaping)
 * and those the domain query composes (occupancy, de-duplicated lists). Every other field of
 * SearchFields passes to the domain as it is, an absent one as null.
 */
const COMPOSED = ['maxCredits', 'dryRun', 'fields', 'view', 'adults', 'children', 'childAges', 'propertyType', 'amenities', 'platforms'] as const;
type Composed = (typeof COMPOSED)[number];
type Passed = { [K in Exclude<keyof SearchInput, Composed>]-?: undefined extends SearchInput[K] ? Exclude<SearchInput[K], undefined> | null : SearchInput[K] };
const PASSED = Object.keys(SearchFields.shape).filter((k) => !(COMPOSED as readonly string[]).includes(k)) as (keyof Passed)[];
const unique = <T extends string>(list: T[] | undefined) => [...new Set(list ?? [])].sort();

/** The domain's search query, derived from the validated input: a new plain field needs no line here. */
export function searchParamsOf(input: SearchInput): SearchParams {
  // A remembered input (facades/input-memo.ts) is frozen and shared: its params are made once, frozen too.
  if (!Object.isFrozen(input)) return paramsOf(input);
  let params = paramsByInput.get(input);
  if (!params) {
    params = deepFreeze(paramsOf(input));
    paramsByInput.set(input, params);
  }
  return params;
}
const paramsByInput = new WeakMap<SearchInput, SearchParams>();

function paramsOf(input: SearchInput): SearchParams {
  const passed = {} as Record<keyof Passed, unknown>;
  for (const key of PASSED) passed[key] = input[key] ?? null;
  const params = {
    ...(passed as Passed),
    occupancy: occupancyOf(input),
    propertyTypes: unique(input.propertyType),
    amenities: unique(input.amenities),
    platforms: input.platforms ? [...new Set(input.platforms)] : null,
  };
  return params satisfies Exactly<typeof params, SearchParams>;
}

/**
 * `T` when it has exactly the fields of `U` (with `U`'s optional ones required): a field added to
 * the schema but not to the domain's SearchQuery, or the reverse, does not compile.
 */
type Exactly<T, U> = [keyof T] extends [keyof U] ? ([keyof U] extends [keyof T] ? (T extends Required<U> ? T : never) : never) : never;
