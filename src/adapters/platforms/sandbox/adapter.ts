import { CAPABILITIES, OPERATIONS, RATING_SCALE, type Operation, type Platform } from '../../../domain/platforms.js';
import { basisWarning } from '../../../domain/price-basis.js';
import { adapterSet } from '../registry.js';
import { LegFailure, UpstreamFormatError, type AdapterSet, type PlatformAdapter, type PriceCompareRequest, type SearchLegRequest } from '../../../domain/ports/platform.js';
import { calendar } from './calendar.js';
import { CITIES, matchPlace, SEARCH_RADIUS_KM } from './gazetteer.js';
import type { ResolvedPlace } from '../../../domain/model/common.js';
import { isSandboxPlatform, placeListing, type SandboxPlatform } from './ids.js';
import { sandboxOffers } from './offers.js';
import { sandboxListing, type SandboxListing } from './property.js';
import { MAX_SANDBOX_REVIEWS, sandboxReview } from './reviews.js';
import { searchCity } from './search.js';
import { calendarNightRate, stayPrice } from './stay-price.js';
import { sandboxContext, sandboxOffersFor } from './rates.js';
import { contextUnavailable, nightlyPriceUnavailable } from '../../../domain/rates/warnings.js';
import { sandboxNearby } from './nearby.js';
import { cityHotels, resolveHotelName, sandboxAddress, type ResolvedHotel } from './hotel-names.js';
import { sandboxListingSummary, sandboxStatedSummary } from './review-summary.js';
import { listingReviewSummary, matchesKeyword, reviewsBeyondPaging } from '../../../domain/reviews/summary.js';

/**
 * Magic values that make the sandbox walk every path a client must handle (design.md section 3).
 * `sandbox:async` (search location, price-compare name) is projected slow, so it answers 202 and
 * its job completes in a couple of seconds with the data of the sandbox's first city.
 */
export const SANDBOX_TRIGGERS = { partial: 'sandbox:partial', unavailable: 'sandbox:unavailable', formatChanged: 'sandbox:format-changed', missing: 'sandbox-missing', async: 'sandbox:async' } as const;
const PARTIAL_CITY = 0;
/** `sandbox:async` is projected past any threshold, and when run as a job takes this long. */
export const SANDBOX_ASYNC_PROJECTION_MS = 20_000;
const SANDBOX_ASYNC_RUN_MS = 1_500;
/** What a client sees as the job's estimate: the run plus the worker picking the job up (about 1 s). */
export const SANDBOX_ASYNC_JOB_MS = SANDBOX_ASYNC_RUN_MS + 1_000;

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });
}

function asksForAsync(op: Operation, req: unknown): boolean {
  if (op === 'search') return (req as SearchLegRequest).query.location === SANDBOX_TRIGGERS.async;
  if (op === 'priceCompare') return (req as PriceCompareRequest).name === SANDBOX_TRIGGERS.async;
  return false;
}

const TRIGGER_VALUES: ReadonlySet<string> = new Set(Object.values(SANDBOX_TRIGGERS));

/**
 * Trigger calls are never cached: each must walk its path (202 and a job, a failed leg) every
 * time, and a cached answer would turn `sandbox:async` into a plain 200 once a job completed.
 */
function isTriggerCall(op: Operation, req: unknown): boolean {
  if (op === 'search') return TRIGGER_VALUES.has((req as SearchLegRequest).query.location);
  if (op === 'priceCompare') {
    const r = req as PriceCompareRequest;
    return [r.name, r.googleHotelId].some((v) => v !== null && TRIGGER_VALUES.has(v));
  }
  return false;
}

function failIfUnavailable(platform: Platform, value: string | null | undefined): void {
  if (value === SANDBOX_TRIGGERS.unavailable) throw new LegFailure('failed', `${platform} is unavailable (sandbox trigger)`);
  if (value === SANDBOX_TRIGGERS.formatChanged) throw new UpstreamFormatError(`${platform} answered in an unknown format (sandbox trigger)`);
}

/**
 * The hotel a price-compare names: its id as given, else its name resolved among the sandbox's
 * own hotels (null: none has it). The trigger names `sandbox:async` and `sandbox:partial` walk
 * their path with the first hotel the search lists in the sandbox's first city.
 */
function hotelFor(req: PriceCompareRequest, listingAt: (p: SandboxPlatform, id: string) => SandboxListing): ResolvedHotel | null {
  if (req.googleHotelId !== null) return { googleHotelId: req.googleHotelId, warnings: [] };
  const name = req.name ?? '';
  if (TRIGGER_VALUES.has(name)) return { googleHotelId: cityHotels(PARTIAL_CITY, listingAt)[0]!.googleHotelId, warnings: [] };
  return resolveHotelName(name, req.location, listingAt);
}

function createAdapter(platform: SandboxPlatform, listingAt: (p: SandboxPlatform, id: string) => SandboxListing): PlatformAdapter {
  const operations = new Set(OPERATIONS.filter((op) => CAPABILITIES[op].includes(platform)));
  const missing = (id: string) => id === SANDBOX_TRIGGERS.missing;
  return {
    platform,
    operations,
    expectedMs: (op, req) => (asksForAsync(op, req) ? SANDBOX_ASYNC_PROJECTION_MS : undefined),
    cacheable: (op, req) => !isTriggerCall(op, req),
    runMs: (op, req) => (asksForAsync(op, req) ? SANDBOX_ASYNC_JOB_MS : undefined),
    async search(req, signal) {
      const { location, platforms } = req.query;
      failIfUnavailable(platform, location);
      if (location === SANDBOX_TRIGGERS.async) {
        await pause(SANDBOX_ASYNC_RUN_MS, signal);
        return searchCity(platform, PARTIAL_CITY, req, listingAt);
      }
      if (location === SANDBOX_TRIGGERS.partial) {
        if (platforms[platforms.length - 1] === platform) throw new LegFailure('failed', `${platform} failed (sandbox:partial)`);
        return searchCity(platform, PARTIAL_CITY, req, listingAt);
      }
      const match = matchPlace(location);
      if (match === null) return { items: [], hasMore: false, warnings: [] };
      const place = (i: number) => sandboxPlace(platform, i);
      return { ...searchCity(platform, match.city, req, listingAt), place: place(match.city), alternatives: match.alternatives.map(place) };
    },
    async listing(req) {
      failIfUnavailable(platform, req.listingId);
      if (missing(req.listingId)) return null;
      const listing = listingAt(platform, req.listingId);
      const price = req.stay ? stayPrice(platform, listing, req.stay, req.currency) : null;
      const warning = price && basisWarning(price.basis, platform, `listing ${req.listingId}`);
      const nearby = sandboxNearby(platform, listing.property, CITIES[placeListing(platform, req.listingId).city]!);
      const verdict = listingReviewSummary(platform, RATING_SCALE[platform], sandboxListingSummary(platform, listing.property));
      return { value: { ...listing.property, price, nearby, reviewSummary: verdict.summary }, warnings: [...(warning ? [warning] : []), ...verdict.warnings] };
    },
    async price(req) {
      failIfUnavailable(platform, req.listingId);
      if (missing(req.listingId)) return null;
      const listing = listingAt(platform, req.listingId);
      const quote = stayPrice(platform, listing, req, req.currency);
      const { basis, nightlyPrice, totalPrice, nights, fees, currency } = quote;
      const warning = basisWarning(basis, platform, `listing ${req.listingId}`);
      const offers = sandboxOffersFor(platform, listing, req, currency);
      const context = sandboxContext(platform, listing, req, totalPrice, nights, currency);
      return {
        value: { platform, listingId: req.listingId, checkIn: req.checkIn, checkOut: req.checkOut, currency, basis, nightlyPrice, totalPrice, fees, offers, context, nights, occupancy: req.occupancy, source: platform, url: listing.property.url },
        warnings: [...(warning ? [warning] : []), ...(context ? [] : [contextUnavailable(platform)])],
      };
    },
    async availability(req) {
      failIfUnavailable(platform, req.listingId);
      if (missing(req.listingId)) return null;
      // Like the live platforms: airbnb's calendar states no nightly price, the others' do.
      const listing = listingAt(platform, req.listingId);
      const priced = platform !== 'airbnb';
      const days = calendar(`${platform}:${req.listingId}`, req.startDate, req.endDate, priced ? (date) => calendarNightRate(listing, date, req.currency) : null);
      return { value: days, warnings: priced ? [] : [nightlyPriceUnavailable(platform)] };
    },
    async reviews(req) {
      failIfUnavailable(platform, req.listingId);
      if (missing(req.listingId)) return null;
      const property = listingAt(platform, req.listingId).property;
      const total = Math.min(property.reviewCount ?? 0, MAX_SANDBOX_REVIEWS);
      let all = Array.from({ length: total }, (_, i) => sandboxReview(platform, req.listingId, i));
      if (req.language) all = all.filter((r) => r.language === req.language);
      if (req.minRating !== null) all = all.filter((r) => (r.rating ?? -1) >= req.minRating!);
      if (req.q !== null) all = all.filter((r) => matchesKeyword(r, req.q));
      const stated = sandboxStatedSummary(platform, property);
      if (req.sort !== 'recent') {
        const dir = req.sort === 'rating_desc' ? -1 : 1;
        all = all.map((r, i) => ({ r, i })).sort((a, b) => dir * ((a.r.rating ?? 0) - (b.r.rating ?? 0)) || a.i - b.i).map((x) => x.r);
      }
      const truncated = reviewsBeyondPaging(platform, property.reviewCount, MAX_SANDBOX_REVIEWS);
      return { reviews: all.slice(req.offset, req.offset + req.count), hasMore: req.offset + req.count < all.length, warnings: truncated ? [truncated] : [], ...(stated ? { stated } : {}) };
    },
    async priceCompare(req, signal) {
      const key = req.googleHotelId ?? req.name ?? '';
      failIfUnavailable(platform, key);
      if (key === SANDBOX_TRIGGERS.async) await pause(SANDBOX_ASYNC_RUN_MS, signal);
      if (missing(key)) return null;
      const hotel = hotelFor(req, listingAt);
      if (hotel === null) return null;
      const { googleHotelId } = hotel;
      const listing = listingAt('google', googleHotelId);
      let offers = sandboxOffers(googleHotelId, listing, req, req.currency);
      const warnings = [...hotel.warnings];
      if (key === SANDBOX_TRIGGERS.partial) {
        offers = offers.slice(1);
        warnings.push({ code: 'offers_incomplete', message: 'Rates from one OTA could not be fetched (sandbox:partial).', platform });
      }
      return { value: { property: listing.property.name, googleHotelId, address: sandboxAddress(listing), offers }, warnings };
    },
  };
}

/** The sandbox adapters, one per platform of the capability matrix, sharing one memo of listings. */
export function createSandboxAdapters(): AdapterSet {
  const memo = new Map<string, SandboxListing>();
  const listingAt = (platform: SandboxPlatform, id: string): SandboxListing => {
    const key = `${platform}\u0000${id}`;
    let listing = memo.get(key);
    if (!listing) {
      listing = sandboxListing(platform, id, placeListing(platform, id));
      if (memo.size > 50_000) memo.clear();
      memo.set(key, listing);
    }
    return listing;
  };
  return adapterSet(CAPABILITIES.search.filter(isSandboxPlatform).map((p) => createAdapter(p, listingAt)));
}

/**
 * The place a sandbox platform searched. Google searches a wider circle than the rental
 * platforms, so meta.resolved.location.byPlatform has something to show in the sandbox too.
 */
function sandboxPlace(platform: SandboxPlatform, city: number): ResolvedPlace {
  const c = CITIES[city]!;
  return { name: c.name, region: c.region, countryCode: c.country, lat: c.lat, lng: c.lng, radiusKm: platform === 'google' ? 25 : SEARCH_RADIUS_KM };
}
