import { compareForSort } from '../../../domain/operations/merge.js';
import type { Warning } from '../../../domain/model/common.js';
import type { Property } from '../../../domain/model/property.js';
import type { SearchLegRequest, SearchLegResult, SearchQuery } from '../../../domain/ports/platform.js';
import { FieldWarnings } from '../parse-support.js';
import { parseSearchPage, type SearchContext } from './parse-search.js';
import { termsFilterNames, termsNotInSearch } from '../../../domain/rates/warnings.js';
import { SEARCH_AMENITY_IDS } from './taxonomy.js';
import { LegGeo } from '../../../domain/geo/leg-geo.js';

export interface SearchLegDeps {
  /** One StaysSearch page: `cursor` null for the first page, else one of Airbnb's own page cursors. */
  fetchPage(cursor: string | null): Promise<unknown>;
  siteUrl: string;
  maxPages: number;
}

const warn = (code: string, message: string): Warning => ({ code, message, platform: 'airbnb' });

/** Filters Airbnb search cannot take but that the cards let us apply exactly after retrieval. */
function postFilter(q: SearchQuery): ((p: Property) => boolean) | null {
  const checks: ((p: Property) => boolean)[] = [];
  if (q.propertyTypes.length) checks.push((p) => q.propertyTypes.includes(p.propertyType));
  if (q.minGuestRating !== null) checks.push((p) => p.guestRating !== null && p.guestRating >= q.minGuestRating!);
  if (q.priceMin !== null) checks.push((p) => p.price !== null && p.price.nightlyPrice >= q.priceMin!);
  if (q.priceMax !== null) checks.push((p) => p.price !== null && p.price.nightlyPrice <= q.priceMax!);
  return checks.length ? (p) => checks.every((c) => c(p)) : null;
}

function dedupe(list: Warning[]): Warning[] {
  const seen = new Set<string>();
  return list.filter((w) => (seen.has(w.code) ? false : (seen.add(w.code), true)));
}

/**
 * One Airbnb search leg. Pages are read from the first one, following Airbnb's own page cursors,
 * until the leg's window plus one more item is known (so `hasMore` is exact) — or, for a price or
 * rating sort, which Airbnb cannot do, until every page (up to `maxPages`) is read and sorted here.
 * Amenities and minimum bedrooms are sent to Airbnb; property type, price and rating filters are
 * applied to the cards after retrieval.
 */
export async function searchLeg(req: SearchLegRequest, deps: SearchLegDeps, currencyContext: Omit<SearchContext, 'siteUrl'>): Promise<SearchLegResult> {
  const q = req.query;
  const unsupported = q.amenities.filter((a) => SEARCH_AMENITY_IDS[a] === undefined);
  if (unsupported.length) {
    return { items: [], hasMore: false, warnings: [warn('filter_unsupported', `Airbnb search cannot filter on ${unsupported.join(', ')}; no airbnb results are given rather than unfiltered ones.`)] };
  }
  const geo = new LegGeo('airbnb', q.area);
  if (geo.unsupported) return { items: [], hasMore: false, warnings: [geo.unsupported] };
  const ctx: SearchContext = { ...currencyContext, siteUrl: deps.siteUrl };
  const w = new FieldWarnings('airbnb');
  const filter = postFilter(q);
  const sorted = q.sort !== 'recommended';
  const need = sorted ? Infinity : req.offset + req.count + 1;

  const matched: Property[] = [];
  const seen = new Set<string>();
  let cursors: string[] = [];
  let truncated = false;
  for (let page = 0; matched.length < need; page++) {
    if (page >= deps.maxPages) {
      truncated = page < cursors.length;
      break;
    }
    const cursor = page === 0 ? null : cursors[page];
    if (cursor === undefined) break;
    const parsed = parseSearchPage(await deps.fetchPage(cursor), ctx, w);
    if (parsed.pageCursors.length) cursors = parsed.pageCursors;
    for (const card of parsed.items) {
      if (seen.has(card.platformListingId)) continue;
      seen.add(card.platformListingId);
      const item = geo.place(card);
      if ((!filter || filter(item)) && geo.keep(item)) matched.push(item);
    }
    if (parsed.resultCount === 0) break;
  }

  const compare = compareForSort(q.sort);
  if (compare) matched.sort(compare);
  const warnings = [...dedupe(w.list), ...geo.warnings()];
  if (filter) warnings.push(warn('filter_applied_after_retrieval', 'Airbnb property-type, price and rating filters are applied after retrieval, so pages may hold fewer items.'));
  if (truncated) warnings.push(warn('results_truncated', `Only the first ${deps.maxPages} airbnb result pages were read.`));
  if (termsFilterNames(q).length) warnings.push(termsNotInSearch('airbnb', termsFilterNames(q)));
  return { items: matched.slice(req.offset, req.offset + req.count), hasMore: matched.length > req.offset + req.count, warnings };
}
