import type { Warning } from '../../../domain/model/common.js';
import type { Property } from '../../../domain/model/property.js';
import { daysBetween } from '../../../domain/dates.js';
import { normaliseName } from '../../../domain/property-names.js';
import { dig, FieldWarnings, str } from '../parse-support.js';
import { answerKind, assertCurrency, assertStay, isPropertyToken } from './guards.js';
import { detailsToken, parseProperty, PLATFORM } from './parse.js';

/**
 * One page of a SerpApi `engine=google_hotels` search. Items are `properties[]` in Google's order;
 * sponsored `ads[]` are left out (paid placements, repeating organic hotels). When the query names
 * one hotel exactly, SerpApi answers with that hotel's details instead of a list: that answer is
 * a page of one item.
 */

export interface SearchPageContext {
  currency: string;
  /** The stay the client asked for; null for an undated search (the page's prices are then ignored). */
  stay: { checkIn: string; checkOut: string } | null;
}

export interface SearchPage {
  items: Property[];
  /** SerpApi's `serpapi_pagination.next_page_token`; null on the last page. */
  nextPageToken: string | null;
  warnings: Warning[];
}

/** A search answered with one hotel's details (no `properties[]`, a token at the top level or in search_parameters). */
export function isDetailsAnswer(json: unknown): boolean {
  return !Array.isArray(dig(json, 'properties')) && detailsToken(json) !== null;
}

export function parseSearchPage(json: unknown, ctx: SearchPageContext): SearchPage {
  if (answerKind(json) === 'no_results') return { items: [], nextPageToken: null, warnings: [] };
  assertCurrency(json, ctx.currency);
  if (ctx.stay) assertStay(json, ctx.stay.checkIn, ctx.stay.checkOut);
  const w = new FieldWarnings(PLATFORM);
  const price = ctx.stay ? { currency: ctx.currency, nights: daysBetween(ctx.stay.checkIn, ctx.stay.checkOut) } : null;
  const raw = isDetailsAnswer(json) ? [json] : dig(json, 'properties');
  const items: Property[] = [];
  const token = isDetailsAnswer(json) ? detailsToken(json) : null;
  for (const entry of Array.isArray(raw) ? raw : []) {
    const p = parseProperty(entry, price, w, token);
    if (p !== null) items.push(p);
  }
  const next = str(dig(json, 'serpapi_pagination', 'next_page_token'));
  return { items, nextPageToken: next, warnings: w.list };
}


/**
 * The property token of the one search result whose name is exactly `name` (normalised). Several
 * different properties of that name (a chain's hotels in several cities) are not a confident
 * match, and neither is a merely similar name: both are null, never another hotel.
 */
export function exactNameMatch(json: unknown, name: string): string | null {
  const wanted = normaliseName(name);
  if (wanted === '') return null;
  const candidates = isDetailsAnswer(json) ? [json] : dig(json, 'properties');
  const tokens = new Set<string>();
  for (const entry of Array.isArray(candidates) ? candidates : []) {
    const token = str(dig(entry, 'property_token')) ?? (entry === json ? detailsToken(json) : null);
    const entryName = str(dig(entry, 'name'));
    if (token !== null && isPropertyToken(token) && entryName !== null && normaliseName(entryName) === wanted) tokens.add(token);
  }
  return tokens.size === 1 ? [...tokens][0]! : null;
}
