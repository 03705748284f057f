import { compareForSort } from '../../../domain/operations/merge.js';
import type { Warning } from '../../../domain/model/common.js';
import type { Property } from '../../../domain/model/property.js';
import { LegFailure, type SearchLegRequest, type SearchLegResult, type SearchQuery } from '../../../domain/ports/platform.js';
import { UpstreamNotFound, type UpstreamClient } from '../http/upstream.js';
import { FieldWarnings } from '../parse-support.js';
import { searchRequest } from './client.js';
import { termsFilterNames, termsNotInSearch } from '../../../domain/rates/warnings.js';
import { parseSearchPage } from './parse-search.js';
import { LegGeo } from '../../../domain/geo/leg-geo.js';

export interface VrboSearchConfig {
  siteUrl: string;
  pageSize: number;
  /** Upstream pages read at most for one leg. */
  maxPages: number;
}

/**
 * The unified filters, applied to the parsed items (their meaning is then exact). A value the item
 * does not state cannot be confirmed, so the item is left out; occupancy, which was also sent to
 * the platform, only removes items whose stated capacity is too small.
 */
function filterOf(q: SearchQuery): { keep: (p: Property) => boolean; afterRetrieval: string[] } {
  const afterRetrieval: string[] = [];
  if (q.propertyTypes.length) afterRetrieval.push('propertyType');
  if (q.amenities.length) afterRetrieval.push('amenities');
  if (q.minBedrooms !== null) afterRetrieval.push('minBedrooms');
  if (q.minGuestRating !== null) afterRetrieval.push('minGuestRating');
  const guests = q.occupancy.adults + q.occupancy.children;
  const keep = (p: Property): boolean =>
    (p.maxOccupancy === null || p.maxOccupancy >= guests) &&
    (!q.propertyTypes.length || q.propertyTypes.includes(p.propertyType)) &&
    (!q.amenities.length || q.amenities.every((a) => p.amenities?.includes(a) === true)) &&
    (q.minBedrooms === null || (p.bedrooms !== null && p.bedrooms >= q.minBedrooms)) &&
    (q.minGuestRating === null || (p.guestRating !== null && p.guestRating >= q.minGuestRating));
  return { keep, afterRetrieval };
}

const warn = (code: string, message: string): Warning => ({ code, message, platform: 'vrbo' });

/**
 * One Vrbo search leg: reads SERP pages from the first until `offset + count` matching items and
 * one more are known (or, for a sort other than `recommended`, until the results end, since the
 * order is then computed here), filters after retrieval, and slices at the leg's offset.
 * `hasMore` is true only when a further matching item was actually seen.
 */
export async function searchVrbo(client: UpstreamClient, req: SearchLegRequest, signal: AbortSignal, cfg: VrboSearchConfig): Promise<SearchLegResult> {
  const q = req.query;
  if (q.priceMin !== null || q.priceMax !== null) {
    return {
      items: [],
      hasMore: false,
      warnings: [warn('filter_unsupported', 'Vrbo search results carry no stay price, so a price filter cannot be applied; no Vrbo items are returned for it.')],
    };
  }
  const geo = new LegGeo('vrbo', q.area);
  if (geo.unsupported) return { items: [], hasMore: false, warnings: [geo.unsupported] };
  const w = new FieldWarnings('vrbo');
  const { keep, afterRetrieval } = filterOf(q);
  const ctx = { siteUrl: cfg.siteUrl, currency: q.currency, dated: q.checkIn !== null && q.checkOut !== null };
  const wanted = req.offset + req.count + 1;
  const sorted = q.sort !== 'recommended';
  const seen = new Set<string>();
  const kept: Property[] = [];
  let page = 1;
  let more = true;
  while (more && (sorted || kept.length < wanted)) {
    if (page > cfg.maxPages) break;
    let json: unknown;
    try {
      json = await client.json(searchRequest(q, page, cfg.pageSize), signal);
    } catch (err) {
      if (err instanceof UpstreamNotFound) throw new LegFailure('failed', 'vrbo search endpoint answered 404');
      throw err;
    }
    const parsed = parseSearchPage(json, page, cfg.pageSize, ctx, w);
    for (const card of parsed.items) {
      if (seen.has(card.id)) continue; // results shifted between page reads
      seen.add(card.id);
      const item = geo.place(card);
      if (keep(item) && geo.keep(item)) kept.push(item);
    }
    more = parsed.more;
    page++;
  }
  const warnings = [...w.list, ...geo.warnings()];
  if (more && (sorted || kept.length < wanted)) {
    warnings.push(warn('results_truncated', `Only the first ${cfg.maxPages * cfg.pageSize} Vrbo results were read${sorted ? '; the sort covers those' : ''}.`));
  }
  if (afterRetrieval.length) {
    warnings.push(warn('filter_applied_after_retrieval', `Vrbo ${afterRetrieval.join(', ')} filters are applied after retrieval, so pages may hold fewer items.`));
  }
  const compare = compareForSort(q.sort);
  const ordered = compare ? [...kept].sort(compare) : kept;
  if (termsFilterNames(q).length) warnings.push(termsNotInSearch('vrbo', termsFilterNames(q)));
  return { items: ordered.slice(req.offset, req.offset + req.count), hasMore: ordered.length > req.offset + req.count, warnings };
}
