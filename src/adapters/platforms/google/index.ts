import type { Operation } from '../../../domain/platforms.js';
import { LegFailure, type Adapted, type OfferSet, type Occupancy, type PlatformAdapter, type PriceCompareRequest, type ReviewsRequest, type SearchLegRequest } from '../../../domain/ports/platform.js';
import { UpstreamNotFound, type UpstreamClient, type UpstreamRequest } from '../http/upstream.js';
import { detailsRequest, mapsReviewsRequest, placeholderDates, searchRequest, type Dates } from './client.js';
import { mapsReviewsLeg } from './reviews-leg.js';
import { answerKind, isPropertyToken } from './guards.js';
import { PLATFORM } from './parse.js';
import { parseListing, parseOffers, parsePrice } from './parse-details.js';
import { exactNameMatch, isDetailsAnswer, parseSearchPage } from './parse-search.js';
import { normaliseName } from '../../../domain/property-names.js';
import { pagesFor, runSearch } from './search.js';

/**
 * Google Hotels through a hosted results provider speaking SerpApi's format (`engine=google_hotels`).
 *
 * Declared operations, each proven on a recorded SerpApi answer (../shared/upstream-samples/google):
 * - search: google_hotels search (London USD, Malang IDR);
 * - listing, price, priceCompare: google_hotels property details (London, 45 OTA rates);
 *   priceCompare by name also runs a search first.
 * - reviews: google_maps_reviews (Radisson Goa), for a Maps place id (see reviews-leg.ts).
 * Not declared: availability (Google has no calendar): platform_not_supported for live keys.
 */

export interface GoogleAdapterOptions {
  /** The provider's API key, added as `api_key` to every query; never logged. */
  apiKey: string;
  /** Clock for the placeholder dates SerpApi requires on undated calls. */
  now?: () => Date;
}

/** A SerpApi call takes 1 to 3 s (the recorded answers report 1.2 to 2.2 s). */
const PER_CALL_MS = 2_500;
const OPERATIONS: ReadonlySet<Operation> = new Set<Operation>(['search', 'listing', 'price', 'priceCompare', 'reviews']);
/** Pages of Maps reviews read at most for one call (8 then up to 20 each). */
const MAX_REVIEW_PAGES = 6;

export function createGoogleAdapter(client: UpstreamClient, options: GoogleAdapterOptions): PlatformAdapter {
  const apiKey = options.apiKey?.trim();
  if (!apiKey) throw new Error('google adapter: apiKey is required');
  const now = options.now ?? (() => new Date());

  /** The answer, or null when the provider says 404 (the property does not exist). */
  async function fetchJson(req: UpstreamRequest, signal: AbortSignal): Promise<unknown> {
    try {
      return await client.json(req, signal);
    } catch (err) {
      if (err instanceof UpstreamNotFound) return null;
      throw err;
    }
  }

  async function details(token: string, dates: Dates, occupancy: Occupancy, currency: string, signal: AbortSignal): Promise<unknown> {
    if (!isPropertyToken(token)) return null;
    return fetchJson(detailsRequest(apiKey, token, dates, occupancy, currency), signal);
  }

  async function resolveByName(req: PriceCompareRequest, name: string, signal: AbortSignal): Promise<Adapted<OfferSet> | null> {
    const q = req.location ? `${name} ${req.location}` : name;
    const search = await fetchJson(searchRequest(apiKey, { q, dates: req, occupancy: req.occupancy, currency: req.currency, sortBy: null, pageToken: null }), signal);
    if (search === null || answerKind(search) === 'no_results') return null;
    const token = exactNameMatch(search, name);
    if (token === null) return null;
    // A query naming one hotel is answered with its details directly: no second call then.
    const json = isDetailsAnswer(search) ? search : await details(token, req, req.occupancy, req.currency, signal);
    if (json === null) return null;
    const result = parseOffers(json, token, req, req.currency);
    // The details must still be the named hotel; anything else is not a confident match.
    return result && normaliseName(result.value.property) === normaliseName(name) ? result : null;
  }

  return {
    platform: PLATFORM,
    operations: OPERATIONS,

    expectedMs(op, req) {
      if (op === 'search') return pagesFor(req as SearchLegRequest) * PER_CALL_MS;
      if (op === 'priceCompare') return ((req as PriceCompareRequest).googleHotelId ? 1 : 2) * PER_CALL_MS;
      if (op === 'reviews') {
        const r = req as ReviewsRequest;
        return Math.min(MAX_REVIEW_PAGES, 1 + Math.ceil(Math.max(0, r.offset + r.count + 1 - 8) / 20)) * PER_CALL_MS;
      }
      return PER_CALL_MS;
    },

    reviews: (req, signal) =>
      mapsReviewsLeg(req, {
        maxPages: MAX_REVIEW_PAGES,
        fetchPage: async (placeId, sortBy, token) => (await fetchJson(mapsReviewsRequest(apiKey, placeId, sortBy, token), signal)) ?? { error: "Google hasn't returned any results for this query." },
      }),

    async search(req, signal) {
      const q = req.query;
      const stay = q.checkIn && q.checkOut ? { checkIn: q.checkIn, checkOut: q.checkOut } : null;
      const dates = stay ?? placeholderDates(now());
      const result = await runSearch(req, async (pageToken, sortBy) => {
        const json = await fetchJson(searchRequest(apiKey, { q: q.location, dates, occupancy: q.occupancy, currency: q.currency, sortBy, pageToken }), signal);
        if (json === null) throw new LegFailure('failed', 'google answered 404 to a search');
        return parseSearchPage(json, { currency: q.currency, stay });
      });
      // SerpApi's google_hotels has no rooms parameter: Google prices one room for the whole party.
      if (q.rooms > 1) result.warnings.push({ code: 'rooms_not_applied', message: `Google Hotels prices one room for the whole party; rooms=${q.rooms} was not applied.`, platform: PLATFORM });
      return result;
    },

    async listing(req, signal) {
      const dates = req.stay ?? placeholderDates(now());
      const occupancy = req.stay?.occupancy ?? { adults: 2, children: 0, childAges: [] };
      const json = await details(req.listingId, dates, occupancy, req.currency, signal);
      if (json === null) return null;
      const listing = parseListing(json, req.listingId);
      if (listing === null || req.stay === null) return listing;
      // Dated: the same answer prices the stay, as the price operation would; no price is no price.
      try {
        const quote = parsePrice(json, { listingId: req.listingId, currency: req.currency, ...req.stay });
        if (quote === null) return listing;
        const { currency, basis, nightlyPrice, totalPrice, nights, fees } = quote.value;
        return { value: { ...listing.value, price: { currency, basis, nightlyPrice, totalPrice, nights, fees } }, warnings: [...listing.warnings, ...quote.warnings] };
      } catch (err) {
        if (!(err instanceof LegFailure)) throw err;
        return { value: listing.value, warnings: [...listing.warnings, { code: 'price_unavailable', message: err.message, platform: PLATFORM }] };
      }
    },

    async price(req, signal) {
      const json = await details(req.listingId, req, req.occupancy, req.currency, signal);
      return json === null ? null : parsePrice(json, req);
    },

    async priceCompare(req, signal) {
      if (req.googleHotelId !== null) {
        const json = await details(req.googleHotelId, req, req.occupancy, req.currency, signal);
        return json === null ? null : parseOffers(json, req.googleHotelId, req, req.currency);
      }
      return req.name ? resolveByName(req, req.name, signal) : null;
    },
  };
}
