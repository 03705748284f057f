import { daysBetween } from '../../../domain/dates.js';
import { compareForSort } from '../../../domain/operations/merge.js';
import type { Property } from '../../../domain/model/property.js';
import type { SearchLegRequest, SearchLegResult, SearchQuery } from '../../../domain/ports/platform.js';
import type { UpstreamRequest } from '../http/upstream.js';
import { FieldWarnings } from '../parse-support.js';
import { fullSearchRequest } from './client.js';
import { hasTermsFilter, meetsTerms } from '../../../domain/rates/offer-terms.js';
import { offerTermsUnknown, termsFilterNames } from '../../../domain/rates/warnings.js';
import { bookingOffers } from './parse-offers.js';
import { parseSearchItem, parseSearchPage } from './parse-search.js';
import { LegGeo } from '../../../domain/geo/leg-geo.js';

export type Fetch = (req: UpstreamRequest) => Promise<unknown>;

export interface SearchLimits {
  /** Results asked for per upstream page. */
  pageSize: number;
  /** Most results read when filters or a sort are applied after retrieval. */
  maxScan: number;
}

interface Page {
  items: Property[];
  /** Results the platform sent, parsed or not (upstream offsets count these). */
  sent: number;
  total: number | null;
}

/** The filters Booking.com's results let the adapter apply exactly; null when none is asked for. */
function postFilter(q: SearchQuery, terms: Map<string, boolean | null>): { names: string[]; keep: (p: Property) => boolean } | null {
  const tests: [string, (p: Property) => boolean][] = [];
  // Issue 25: a result's stated terms (its blocks, meal plan and policies); unknown ones are kept.
  if (hasTermsFilter(q)) tests.push([termsFilterNames(q).join(', '), (p) => terms.get(p.platformListingId) !== false]);
  if (q.propertyTypes.length) tests.push(['propertyType', (p) => q.propertyTypes.includes(p.propertyType)]);
  if (q.minBedrooms !== null) tests.push(['minBedrooms', (p) => p.bedrooms !== null && p.bedrooms >= q.minBedrooms!]);
  if (q.minGuestRating !== null) tests.push(['minGuestRating', (p) => p.guestRating !== null && p.guestRating >= q.minGuestRating!]);
  if (q.priceMin !== null) tests.push(['priceMin', (p) => p.price !== null && p.price.nightlyPrice >= q.priceMin!]);
  if (q.priceMax !== null) tests.push(['priceMax', (p) => p.price !== null && p.price.nightlyPrice <= q.priceMax!]);
  return tests.length ? { names: tests.map(([n]) => n), keep: (p) => tests.every(([, t]) => t(p)) } : null;
}

/**
 * One search leg. Without filters or a sort, the platform's own order and paging are used (the
 * leg's offset is Booking.com's offset). Otherwise the first `maxScan` results are read, filtered
 * and sorted here, and sliced at the offset; warnings say so, and say when the scan stopped
 * short of the platform's total. A radius or box is one of those filters, on the results'
 * coordinates (LegGeo says how many had none). Amenity filters cannot be applied (search results list no
 * facilities): the leg then returns nothing, with a warning, rather than unfiltered results.
 */
export async function searchLeg(fetch: Fetch, req: SearchLegRequest, limits: SearchLimits): Promise<SearchLegResult> {
  const q = req.query;
  const geo = new LegGeo('booking', q.area);
  if (geo.unsupported) return { items: [], hasMore: false, warnings: [geo.unsupported] };
  const w = new FieldWarnings('booking');
  if (q.amenities.length) {
    w.add('filter_not_supported', 'booking: search results list no facilities, so the amenities filter cannot be applied; booking returned no properties for it.');
    return { items: [], hasMore: false, warnings: w.list };
  }
  const dates = q.checkIn && q.checkOut ? { checkIn: q.checkIn, checkOut: q.checkOut } : null;
  const ctx = { currency: q.currency, nights: dates ? daysBetween(dates.checkIn, dates.checkOut) : null };
  const terms = new Map<string, boolean | null>();
  const page = async (offset: number, rows: number): Promise<Page> => {
    const call = { where: { searchString: q.location }, dates, occupancy: q.occupancy, rooms: q.rooms, offset, rows, currency: q.currency };
    const { results, total } = parseSearchPage(await fetch(fullSearchRequest(call)));
    const items: Property[] = [];
    for (const r of results) {
      const parsed = parseSearchItem(r, ctx, w);
      if (parsed === null) continue;
      const p = geo.place(parsed);
      items.push(p);
      if (hasTermsFilter(q)) terms.set(p.platformListingId, p.price ? meetsTerms(bookingOffers(r, p.price).offers, q) : null);
    }
    return { items, sent: results.length, total };
  };

  const filter = postFilter(q, terms);
  const compare = compareForSort(q.sort);
  // An area is applied here, by the coordinates distanceKm is measured from, so it scans too.
  if (!filter && !compare && !geo.filterName) {
    const rows = Math.min(req.count, 100);
    const p = await page(req.offset, rows);
    if (p.total !== null && req.offset >= p.total) return { items: [], hasMore: false, warnings: w.list };
    const hasMore = p.total !== null ? req.offset + p.sent < p.total : p.sent >= rows;
    return { items: p.items.slice(0, req.count), hasMore, warnings: [...w.list, ...geo.warnings()] };
  }

  const first = await page(0, limits.pageSize);
  const pages = [first];
  let read = first.sent;
  const end = Math.min(limits.maxScan, first.total ?? limits.maxScan);
  // The platform's total says where the list ends; only without one does a short page end it.
  let exhausted = first.total !== null ? read >= first.total : first.sent < limits.pageSize;
  // Pages at fixed offsets in parallel only when the platform fills its pages; a short first
  // page with a larger total is followed page by page from where it ended.
  const parallel = !exhausted && first.total !== null && first.sent >= limits.pageSize;
  if (parallel && first.total !== null) {
    const offsets: number[] = [];
    for (let o = limits.pageSize; o < end; o += limits.pageSize) offsets.push(o);
    const rest = await Promise.all(offsets.map((o) => page(o, limits.pageSize)));
    pages.push(...rest);
    read += rest.reduce((n, p) => n + p.sent, 0);
    exhausted = read >= first.total;
  }
  while (!exhausted && !parallel && read < limits.maxScan) {
    const p = await page(read, limits.pageSize);
    pages.push(p);
    read += p.sent;
    exhausted = p.sent === 0 || (first.total !== null ? read >= first.total : p.sent < limits.pageSize);
  }

  const seen = new Set<string>();
  let items = pages.flatMap((p) => p.items).filter((p) => !seen.has(p.platformListingId) && seen.add(p.platformListingId));
  items = items.filter((p) => geo.keep(p));
  if (filter) {
    items = items.filter(filter.keep);
    if (items.some((p) => terms.get(p.platformListingId) === null)) w.list.push(offerTermsUnknown('booking', termsFilterNames(q)));
    w.add('filter_applied_after_retrieval', `booking: ${filter.names.join(', ')} applied after retrieval, so pages may hold fewer items.`);
  }
  if (compare) items = [...items].sort(compare);
  if (!exhausted) {
    w.add('results_truncated', `booking: filters and sorting were applied to the first ${read} of ${first.total ?? 'more'} results only.`);
  }
  return { items: items.slice(req.offset, req.offset + req.count), hasMore: items.length > req.offset + req.count, warnings: [...w.list, ...geo.warnings()] };
}
