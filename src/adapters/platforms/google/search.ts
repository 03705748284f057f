import { compareForSort } from '../../../domain/operations/merge.js';
import type { Warning } from '../../../domain/model/common.js';
import type { Property } from '../../../domain/model/property.js';
import type { SearchLegRequest, SearchLegResult, SearchQuery } from '../../../domain/ports/platform.js';
import { UPSTREAM_SORT } from './client.js';
import { PLATFORM } from './parse.js';
import { termsFilterNames, termsNotInSearch } from '../../../domain/rates/warnings.js';
import { parseSearchPage, type SearchPage } from './parse-search.js';
import { LegGeo } from '../../../domain/geo/leg-geo.js';

/**
 * Offset/count over SerpApi's pages. SerpApi pages are about 20 properties long and reachable
 * only through the previous page's `next_page_token`, so a leg at offset N walks the pages from
 * the first until it holds N + count items (or the results end). Each page is a paid SerpApi
 * call, so the walk is capped; `hasMore` is true only when an item beyond the slice was seen or
 * SerpApi named a next page that the cap does not forbid.
 *
 * Filters Google cannot apply exactly are applied to the parsed items (and said so). Sorts other
 * than `recommended` must hand the merge a leg in the sort's exact order: a fixed window of the
 * first pages (fetched with Google's own sort where it has one) is sorted here and sliced, so
 * every page of the client's walk cuts the same ordered list.
 */

export const MAX_PAGES = 8;
export const SORT_WINDOW_PAGES = 3;
export const ITEMS_PER_PAGE = 20;

export type FetchPage = (pageToken: string | null, sortBy: number | null) => Promise<SearchPage>;

function filterOf(q: SearchQuery): { names: string[]; keep: (p: Property) => boolean } {
  const tests: [string, (p: Property) => boolean][] = [];
  if (q.propertyTypes.length) tests.push(['propertyType', (p) => q.propertyTypes.includes(p.propertyType)]);
  if (q.amenities.length) tests.push(['amenities', (p) => p.amenities !== null && q.amenities.every((a) => p.amenities!.includes(a))]);
  if (q.minBedrooms !== null && q.minBedrooms > 0) tests.push(['minBedrooms', (p) => p.bedrooms !== null && p.bedrooms >= q.minBedrooms!]);
  if (q.priceMin !== null) tests.push(['priceMin', (p) => p.price !== null && p.price.nightlyPrice >= q.priceMin!]);
  if (q.priceMax !== null) tests.push(['priceMax', (p) => p.price !== null && p.price.nightlyPrice <= q.priceMax!]);
  if (q.minGuestRating !== null) tests.push(['minGuestRating', (p) => p.guestRating !== null && p.guestRating >= q.minGuestRating!]);
  return { names: tests.map(([n]) => n), keep: (p) => tests.every(([, t]) => t(p)) };
}

/** Every page reports the fields it lacks; the leg says each once. */
function unique(warnings: Warning[]): Warning[] {
  const seen = new Set<string>();
  return warnings.filter((w) => {
    const key = `${w.code}\u0000${w.message}`;
    return seen.has(key) ? false : (seen.add(key), true);
  });
}

/** Pages a leg will read at most: the async projection uses it. */
export function pagesFor(req: SearchLegRequest): number {
  if (req.query.sort !== 'recommended') return SORT_WINDOW_PAGES;
  return Math.min(MAX_PAGES, Math.max(1, Math.ceil((req.offset + req.count) / ITEMS_PER_PAGE)));
}

export async function runSearch(req: SearchLegRequest, fetchPage: FetchPage): Promise<SearchLegResult> {
  const q = req.query;
  const geo = new LegGeo(PLATFORM, q.area);
  if (geo.unsupported) return { items: [], hasMore: false, warnings: [geo.unsupported] };
  const compare = compareForSort(q.sort);
  const sortBy = q.sort === 'price_asc' || q.sort === 'rating_desc' ? UPSTREAM_SORT[q.sort] : null;
  const maxPages = compare ? SORT_WINDOW_PAGES : MAX_PAGES;
  const end = req.offset + req.count;
  const filter = filterOf(q);
  const warnings: Warning[] = [];
  const seen = new Set<string>();
  const tokens = new Set<string>();
  const kept: Property[] = [];
  let next: string | null = null;
  let pages = 0;

  do {
    const page = await fetchPage(next, sortBy);
    pages++;
    warnings.push(...page.warnings);
    let fresh = 0;
    for (const card of page.items) {
      if (seen.has(card.platformListingId)) continue;
      seen.add(card.platformListingId);
      fresh++;
      const item = geo.place(card);
      if (filter.keep(item) && geo.keep(item)) kept.push(item);
    }
    // A page with nothing new, or a token seen before, would loop forever: the results end there.
    next = fresh > 0 && page.nextPageToken !== null && !tokens.has(page.nextPageToken) ? page.nextPageToken : null;
    if (next !== null) tokens.add(next);
  } while (next !== null && pages < maxPages && (compare !== null || kept.length < end));

  if (compare) kept.sort(compare);
  const capped = next !== null && pages >= maxPages;
  if (filter.names.length) {
    warnings.push({ code: 'filter_applied_after_retrieval', message: `Google results were filtered by ${filter.names.join(', ')} after retrieval, so pages may hold fewer items.`, platform: PLATFORM });
  }
  if (compare && next !== null) {
    warnings.push({ code: 'sort_applied_after_retrieval', message: `Google results were ordered by ${q.sort} among the first ${kept.length} it returned (${pages} pages).`, platform: PLATFORM });
  } else if (capped && kept.length <= end) {
    warnings.push({ code: 'results_truncated', message: `Google results beyond the first ${pages} pages are not fetched.`, platform: PLATFORM });
  }
  warnings.push(...geo.warnings());
  const items = kept.slice(req.offset, end);
  const hasMore = kept.length > end || (next !== null && compare === null && !capped);
  if (termsFilterNames(q).length) warnings.push(termsNotInSearch(PLATFORM, termsFilterNames(q)));
  return { items, hasMore, warnings: unique(warnings) };
}
