import { statedReviewSummary } from './review-summary.js';
import { daysBetween } from '../../../domain/dates.js';
import type { Operation } from '../../../domain/platforms.js';
import { LegFailure, UpstreamFormatError, type PlatformAdapter, type PriceRequest } from '../../../domain/ports/platform.js';
import { UpstreamNotFound, type UpstreamClient, type UpstreamRequest } from '../http/upstream.js';
import { FieldWarnings } from '../parse-support.js';
import { calendarRequest, dates, listingRequest, mapBox, party, reviewsRequest, searchParams, searchRequest, type OperationName, type RequestOptions } from './client.js';
import { assertNativeId } from './ids.js';
import { parseCalendar } from './parse-calendar.js';
import { parseListing } from './parse-listing.js';
import { priceQuote } from './price-quote.js';
import { reviewsLeg } from './reviews-leg.js';
import { searchLeg } from './search-leg.js';

export interface AirbnbAdapterOptions {
  /** Public site the listing URLs point at. Default https://www.airbnb.com. */
  siteUrl?: string;
  /** `locale` sent with every request. Default "en" (the parsers read English labels). */
  locale?: string;
  /** sha256 of each persisted query, sent in `extensions.persistedQuery`. */
  hashes?: Partial<Record<OperationName, string>>;
  /** Put the hash in the path as well (`/api/v3/<Op>/<hash>`). Default false. */
  hashInPath?: boolean;
  /** `itemsPerGrid` of a search page. Default 18 (Airbnb's own). */
  searchPageSize?: number;
  /** Search pages read at most for one leg (Airbnb serves 15). Default 15. */
  maxSearchPages?: number;
  /** Reviews asked for per request. Default 50. */
  reviewsPageSize?: number;
  /** Review pages read at most when filtering or sorting after retrieval. Default 20. */
  maxReviewPages?: number;
  /** Half-size, in degrees, of the map box searched around a listing for its price. Default 0.005. */
  priceSearchDelta?: number;
}

const SHA256 = /^[0-9a-f]{64}$/;

/**
 * The live Airbnb adapter. Declared operations, each backed by a recorded Airbnb response format
 * (../shared/upstream-samples/airbnb): search (StaysSearch), listing (StaysPdpSections),
 * availability (PdpAvailabilityCalendar), reviews (StaysPdpReviewsQuery), and price, answered
 * exactly from the listing's own card in a dated StaysSearch (the recorded card format with its
 * line items) found by a map search around the listing's coordinates. priceCompare is not served.
 */
export function createAirbnbAdapter(client: UpstreamClient, options: AirbnbAdapterOptions = {}): PlatformAdapter {
  const siteUrl = options.siteUrl ?? 'https://www.airbnb.com';
  for (const [op, hash] of Object.entries(options.hashes ?? {})) {
    if (hash !== undefined && !SHA256.test(hash)) throw new Error(`airbnb: the ${op} hash must be 64 lowercase hex digits`);
  }
  const ro: RequestOptions = { locale: options.locale ?? 'en', hashes: options.hashes ?? {}, hashInPath: options.hashInPath ?? false };
  const pageSize = options.searchPageSize ?? 18;
  const operations = new Set<Operation>(['search', 'listing', 'price', 'availability', 'reviews']);

  /** The upstream answer, or null when the platform answered 404. */
  async function call(req: UpstreamRequest, signal: AbortSignal): Promise<unknown | null> {
    try {
      return await client.json(req, signal);
    } catch (err) {
      if (err instanceof UpstreamNotFound) return null;
      throw err;
    }
  }

  return {
    platform: 'airbnb',
    operations,
    async search(req, signal) {
      const q = req.query;
      const raw = searchParams(q, pageSize, q.amenities);
      const infants = q.occupancy.childAges.filter((a) => a < 2).length;
      const stay = q.checkIn && q.checkOut ? { checkIn: q.checkIn, checkOut: q.checkOut, adults: q.occupancy.adults, children: q.occupancy.children - infants } : null;
      return searchLeg(
        req,
        { fetchPage: async (cursor) => (await call(searchRequest(raw, cursor, q.currency, ro), signal)) ?? {}, siteUrl, maxPages: options.maxSearchPages ?? 15 },
        { currency: q.currency, stay },
      );
    },
    async listing(req, signal) {
      const json = await call(listingRequest(assertNativeId(req.listingId), req.currency, ro), signal);
      if (json === null) return null;
      const w = new FieldWarnings('airbnb');
      const value = parseListing(json, req.listingId, siteUrl, w);
      return value === null ? null : { value, warnings: w.list };
    },
    async price(req, signal) {
      assertNativeId(req.listingId);
      const infants = req.occupancy.childAges.filter((a) => a < 2).length;
      return priceQuote(req, {
        siteUrl,
        childrenSent: req.occupancy.children - infants,
        maxPages: 3,
        async locate(listingId) {
          const json = await call(listingRequest(listingId, req.currency, ro), signal);
          const detail = json === null ? null : parseListing(json, listingId, siteUrl, new FieldWarnings('airbnb'));
          if (detail === null) return null;
          const { lat, lng } = detail.location;
          if (lat === null || lng === null) throw new UpstreamFormatError(`airbnb listing ${listingId} has no coordinates to look its price up by`);
          return { lat, lng };
        },
        async searchAround(lat, lng, r: PriceRequest, cursor) {
          const raw = [...mapBox(lat, lng, options.priceSearchDelta ?? 0.005), { filterName: 'itemsPerGrid', filterValues: [String(pageSize)] }, ...dates(r.checkIn, r.checkOut), ...party(r.occupancy)];
          return (await call(searchRequest(raw, cursor, r.currency, ro), signal)) ?? {};
        },
      });
    },
    async availability(req, signal) {
      const json = await call(calendarRequest(assertNativeId(req.listingId), req.startDate, req.endDate, ro), signal);
      if (json === null) return null;
      const w = new FieldWarnings('airbnb');
      const days = parseCalendar(json, req.listingId, req.startDate, req.endDate, w);
      if (days === null) return null;
      const expected = daysBetween(req.startDate, req.endDate) + 1;
      if (days.length < expected) w.add('availability_incomplete', `airbnb's calendar covers ${days.length} of the ${expected} days asked for.`);
      return { value: days, warnings: w.list };
    },
    async reviews(req, signal) {
      const id = assertNativeId(req.listingId);
      // Airbnb states its review total, rating and category ratings on the listing page only.
      // A listing page that cannot be had costs the reviews nothing: the summary is then the sample's.
      const page = req.summary ? await call(listingRequest(id, 'USD', ro), signal).catch(() => null) : null;
      const stated = page === null ? null : statedReviewSummary(page);
      const leg = await reviewsLeg(req, {
        fetchPage: async (offset, limit) => (await call(reviewsRequest(id, offset, limit, ro), signal)) ?? { errors: [{ message: 'listing not found' }] },
        pageSize: options.reviewsPageSize ?? 50,
        maxPages: options.maxReviewPages ?? 20,
      });
      return leg && stated ? { ...leg, stated } : leg;
    },
  };
}

