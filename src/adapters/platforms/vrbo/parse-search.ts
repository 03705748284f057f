import type { Property } from '../../../domain/model/property.js';
import { LegFailure, UpstreamFormatError } from '../../../domain/ports/platform.js';
import { dig, num, str, type FieldWarnings } from '../parse-support.js';
import { parseListing, type ListingContext } from './parse-listing.js';
import { assertCurrency, readPriceSummary } from './price-summary.js';

export interface SearchParseContext extends ListingContext {
  /** The currency the client asked for. */
  currency: string;
  /** The search named a stay (checkIn/checkOut), so a price was asked for. */
  dated: boolean;
}

/**
 * The items of a legacy SERP `listings[]` array, in the platform's order. Fails the leg when the
 * platform answered in another currency than asked for. Prices: an undated search has none to
 * give (null, as the schema says); on a dated search the only figure is the summary, whose basis
 * is not stated, so the price stays null with one `price_basis_unclear` warning.
 */
export function parseListings(listings: readonly unknown[], ctx: SearchParseContext, w: FieldWarnings): Property[] {
  const items: Property[] = [];
  let unclear: { id: string; text: string } | null = null;
  let priceless = false;
  for (const raw of listings) {
    const summary = readPriceSummary(dig(raw, 'priceSummary'), ctx.currency);
    // Only a dated search asks for money; an undated one shows no amount, so its currency cannot mislead.
    if (ctx.dated) assertCurrency(summary?.currency ?? null, ctx.currency);
    const property = parseListing(raw, ctx, w);
    if (property === null) continue;
    items.push(property);
    if (!ctx.dated) continue;
    if (summary?.amount != null) unclear ??= { id: property.platformListingId, text: `${str(dig(raw, 'priceSummary', 'formattedAmount'))} ${summary.period ?? '(no period stated)'}` };
    else priceless = true;
  }
  if (unclear !== null && !w.list.some((x) => x.code === 'price_basis_unclear')) {
    w.add('price_basis_unclear', `Vrbo search prices are summaries (e.g. listing ${unclear.id}: ${unclear.text}) that do not state the stay total, fees or taxes; price left null`);
  }
  if (priceless) w.missing('price', 'Vrbo search item without a price summary');
  return items;
}

export interface SearchPage {
  items: Property[];
  /** The platform has results beyond this page. */
  more: boolean;
}

function graphqlError(json: unknown): string | null {
  const errors = dig(json, 'errors');
  if (!Array.isArray(errors) || errors.length === 0) return null;
  return errors.map((e) => str(dig(e, 'message')) ?? 'unknown error').join('; ').slice(0, 300);
}

/**
 * One page of the SERP GraphQL answer `{ data: { results: { page, pageSize, pageCount,
 * resultCount, listings[] } } }`. The envelope fields are those the legacy SearchRequestQuery
 * selects (`HitCollectionSearchResult`/`PagerSearchResult` fragments); the recorded sample holds
 * only `listings[]`. A page other than the one asked for (the platform clamps past the end) ends
 * the results instead of repeating items.
 */
export function parseSearchPage(json: unknown, page: number, pageSize: number, ctx: SearchParseContext, w: FieldWarnings): SearchPage {
  const results = dig(json, 'data', 'results');
  const error = graphqlError(json);
  if (results === null || typeof results !== 'object') {
    if (error !== null) throw new LegFailure('failed', `vrbo answered GraphQL errors: ${error}`);
    throw new UpstreamFormatError('vrbo answered without data.results');
  }
  if (error !== null) w.add('upstream_partial', `Vrbo answered with GraphQL errors alongside data: ${error}`);
  const listings = dig(results, 'listings');
  if (!Array.isArray(listings)) throw new UpstreamFormatError('vrbo answered without a listings array');
  const echoed = num(dig(results, 'page'));
  if (echoed !== null && echoed !== page) return { items: [], more: false };
  const items = parseListings(listings, ctx, w);
  const pageCount = num(dig(results, 'pageCount'));
  const resultCount = num(dig(results, 'resultCount'));
  const size = num(dig(results, 'pageSize')) ?? pageSize;
  const more =
    listings.length === 0 ? false
    : pageCount !== null ? page < pageCount
    : resultCount !== null ? page * size < resultCount
    : listings.length >= pageSize;
  return { items, more };
}
