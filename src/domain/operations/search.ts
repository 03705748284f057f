import { decodeCursor, encodeCursor, rememberedQueryHash, stableJson, StableText } from './cursor.js';
import { runLegs, type LegOutcome } from './fan-out.js';
import { resolveLocation } from './resolved.js';
import { isBox, locationText, parseBbox, searchAreaOf } from '../geo/area.js';
import { ServiceError } from '../errors.js';
import { dedupe } from './dedupe.js';
import { mergePage, type LegSlice } from './merge.js';
import type { Warning } from '../model/common.js';
import type { Property } from '../model/property.js';
import { RATING_SCALE, type Platform } from '../platforms.js';
import type { SearchLegResult, SearchQuery } from '../ports/platform.js';
import type { CacheSlot } from '../caching/cache-policy.js';
import { deepFreeze } from '../caching/page-memo.js';
import { adapterFor, assertNotInPast, assertSomeLegSucceeded, noResults, report, slot, type OperationEnv, type OperationResult } from './shared.js';

export interface SearchParams extends Omit<SearchQuery, 'platforms' | 'location' | 'area'> {
  /** A place name or "lat,lng"; null with a bbox (the input rules require exactly one). */
  location: string | null;
  /** Only items within this many km of the location (issue 25 item 1). */
  radiusKm: number | null;
  /** "swLat,swLng,neLat,neLng", checked by the input rules. */
  bbox: string | null;
  platforms: Platform[] | null;
  limit: number;
  cursor: string | null;
  /** Fold the same home on several platforms into one item (issue 16; default on). */
  dedupe?: boolean;
}

/** spec 4.1: fan out to each platform, merge into one cursor-paginated list. */
export async function searchStays(env: OperationEnv, params: SearchParams): Promise<OperationResult<Property[]>> {
  const platforms = params.platforms ?? env.adapters.supporting('search');
  const adapters = platforms.map((p) => adapterFor(env, 'search', p, 'platforms'));
  if (params.checkIn) assertNotInPast(params.checkIn, 'checkIn', env.now);

  const { limit, cursor, dedupe: fold = true, radiusKm, bbox, location, ...rest } = params;
  const plan = planOf(params);
  const query: SearchQuery = { ...rest, ...plan.place, platforms };
  const { legQuery } = plan;
  const platformList = platforms.join(',');
  let hash = plan.hashes.get(platformList);
  if (hash === undefined) {
    // The leg query and the platforms are the whole query: they key its remembered hash.
    hash = rememberedQueryHash(`${legQuery.text}\u0001${platformList}`, query);
    if (plan.hashes.size < PLAN_ENTRIES) plan.hashes.set(platformList, hash);
  }
  const positions = cursor ? decodeCursor(env.cursorSecret, hash, cursor).positions : {};
  env.beforeUpstream('search', { platforms, maxItems: limit });

  const legs = await runLegs<SearchLegResult>(
    adapters.map((adapter) => {
      const offset = positions[adapter.platform] ?? 0;
      const req = { query, offset, count: limit };
      // Methods, not arrow-valued properties: under tsx (npm start) each arrow given a name is
      // renamed at run time, for every leg of every call (README, "Performance").
      return {
        platform: adapter.platform,
        operation: 'search',
        expectedMs: adapter.expectedMs?.('search', req),
        runMs: adapter.runMs?.('search', req),
        run(signal) {
          return adapter.search!(req, signal);
        },
        count(v) {
          return v.items.length;
        },
        cache: adapter.cacheable?.('search', req) === false ? undefined : legSlot(env, plan, adapter.platform, offset, limit),
      };
    }),
    env,
  );
  assertSomeLegSucceeded(legs);

  // A fully cached call answers from the page built for exactly these leg values, if there is one.
  const pageKey = env.pages && legs.every((l) => l.cached) ? `${env.keyEnv}|${hash}|${limit}|${fold}|${cursor ?? ''}` : null;
  const legValues = legs.map((l) => l.value);
  const memoized = pageKey ? env.pages!.get<OperationResult<Property[]>>(pageKey, legValues) : null;
  if (memoized) return memoized;
  const result = assemblePage(env, { query, hash, limit, cursor, fold, positions, legs });
  return pageKey ? env.pages!.set(pageKey, legValues, result) : result;
}

/**
 * What a search's params alone decide, made once per params object when they are frozen (a
 * remembered REST input, router/schemas/search.schema.ts): the place, the leg query's stable text,
 * the query hash per platform list and the legs' cache slots (issue 29: a hot cached call wrote
 * and hashed the same texts on every request). Params that are not frozen get a plan of their own.
 */
interface SearchPlan {
  place: Pick<SearchQuery, 'location' | 'area'>;
  /** A leg's answer does not depend on the other platforms: the query without them, written once for every leg's key. */
  legQuery: StableText;
  hashes: Map<string, string>;
  slots: Map<string, CacheSlot>;
}
/** Entries per plan map: platform lists and leg slots of one query are few; anything past this is made each time. */
const PLAN_ENTRIES = 64;
const plans = new WeakMap<SearchParams, SearchPlan>();

function planOf(params: SearchParams): SearchPlan {
  let plan = plans.get(params);
  if (plan) return plan;
  const { limit: _l, cursor: _c, dedupe: _d, radiusKm, bbox, location, platforms: _p, ...rest } = params;
  const place = placeOf(location, radiusKm, bbox);
  plan = { place, legQuery: new StableText(stableJson({ ...rest, ...place })), hashes: new Map(), slots: new Map() };
  // Shared by every call with these params: frozen, so nothing downstream can change it for the next caller.
  if (Object.isFrozen(params)) {
    deepFreeze(place);
    plans.set(params, plan);
  }
  return plan;
}

function legSlot(env: OperationEnv, plan: SearchPlan, platform: Platform, offset: number, count: number): CacheSlot {
  const key = `${env.keyEnv}|${platform}|${offset}|${count}`;
  let kept = plan.slots.get(key);
  if (!kept) {
    kept = slot(env, 'search', { platform, query: plan.legQuery, offset, count });
    if (plan.slots.size < PLAN_ENTRIES) plan.slots.set(key, kept);
  }
  return kept;
}

/**
 * The location the platforms are asked for and the area searched. A box is searched around its
 * centre (as "lat,lng", which every platform takes) and filtered to the box.
 */
function placeOf(location: string | null, radiusKm: number | null, bbox: string | null): Pick<SearchQuery, 'location' | 'area'> {
  const box = bbox === null ? null : parseBbox(bbox);
  if (box !== null && !isBox(box)) throw new ServiceError('invalid_request', box.problem, { param: 'bbox' });
  const area = searchAreaOf(location, radiusKm, box);
  return { location: location ?? locationText(area.centre!), area };
}

interface PageParts {
  query: SearchQuery;
  hash: string;
  limit: number;
  cursor: string | null;
  fold: boolean;
  positions: Record<string, number>;
  legs: LegOutcome<SearchLegResult>[];
}

/** Merges the legs into one page, folds duplicates, and says what the page means. */
function assemblePage(env: OperationEnv, { query, hash, limit, cursor, fold, positions, legs }: PageParts): OperationResult<Property[]> {
  const { platforms } = query;
  const positionOf = (p: Platform) => positions[p] ?? 0;
  const slices: LegSlice[] = legs.flatMap((leg) =>
    leg.value ? [{ platform: leg.platform, position: positionOf(leg.platform), items: leg.value.items, hasMore: leg.value.hasMore }] : [],
  );
  const page = mergePage(slices, query.sort, limit);
  // Within the page: the pages still advance by what each platform gave, so none is skipped.
  const folded = fold ? dedupe(page.items) : null;
  const nextPositions: Record<string, number> = { ...positions, ...page.positions };

  const understood = resolveLocation(query.location, legs.map((l) => ({ platform: l.platform, place: l.value?.place, alternatives: l.value?.alternatives })), query.area);
  const warnings = [...understood.warnings, ...searchWarnings(legs, page.items, query, platforms)];

  return {
    operation: 'search',
    data: folded ? folded.items : page.items,
    platforms,
    legs: legs.map((l) => report(l, l.value ? (page.taken[l.platform] ?? 0) : 0)),
    warnings,
    pagination: {
      limit,
      cursor,
      nextCursor: page.hasMore ? encodeCursor(env.cursorSecret, hash, { positions: nextPositions }) : null,
      hasMore: page.hasMore,
    },
    currency: query.currency,
    ...(understood.resolved ? { resolved: understood.resolved } : {}),
    ...(folded ? { deduplicated: folded.deduplicated } : {}),
  };
}

/** Leg and adapter warnings, plus what the merged page itself says (no results, mixed rating scales). */
function searchWarnings(legs: LegOutcome<SearchLegResult>[], items: Property[], query: SearchQuery, platforms: Platform[]): Warning[] {
  const warnings: Warning[] = legs.flatMap((l) => [...l.warnings, ...(l.value?.warnings ?? [])]);
  if (items.length === 0) warnings.push(noResults('properties'));
  if (query.minGuestRating !== null && new Set(platforms.map((p) => RATING_SCALE[p])).size > 1) {
    warnings.push({
      code: 'rating_scales_differ',
      message: 'minGuestRating is compared with each property on its native scale (5 or 10); the platforms asked for use different scales.',
    });
  }
  return [...warnings, ...mixedBasisWarning(items, query)];
}

/** A price sort compares totals as stated; a page whose totals are on different bases says so. */
function mixedBasisWarning(items: Property[], query: SearchQuery): Warning[] {
  if (query.sort !== 'price_asc' && query.sort !== 'price_desc') return [];
  const bases = [...new Set(items.flatMap((p) => (p.price ? [p.price.basis] : [])))].sort();
  if (bases.length < 2) return [];
  return [{ code: 'price_basis_mixed', message: `${query.sort} orders by totalPrice as each platform states it; this page mixes the bases ${bases.join(', ')}, whose totals are not comparable one to one.` }];
}
