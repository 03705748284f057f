import type { ResolvedPlace } from '../model/common.js';
import type { LegError, LegStatus, Warning } from '../model/common.js';
import type { Amenity, Property, PropertyType } from '../model/property.js';
import type { Price } from '../model/price.js';
import type { Review } from '../model/review.js';
import type { CalendarDay } from '../model/availability.js';
import type { Offer } from '../model/price.js';
import type { Board } from '../model/rates.js';
import type { Operation, Platform } from '../platforms.js';
import type { SearchSort } from '../operations/merge.js';
import type { SearchArea } from '../geo/area.js';
import type { StatedReviewSummary } from '../reviews/summary.js';

/**
 * The port every platform adapter implements (conventions rule 11). An adapter answers for one
 * platform, declares the operations it serves, and throws LegFailure when the platform failed;
 * `null` means the platform answered that the listing does not exist.
 */
export interface PlatformAdapter {
  readonly platform: Platform;
  readonly operations: ReadonlySet<Operation>;
  /** How long this call is expected to take (ms), when the adapter knows better than recent latency. */
  expectedMs?(op: Operation, req: unknown): number | undefined;
  /** false: this call's answer must not be cached (the sandbox's trigger values); absent: cacheable. */
  cacheable?(op: Operation, req: unknown): boolean;
  /** How long the call takes once run as a job, when that differs from the projection (the sandbox's simulated slow call). */
  runMs?(op: Operation, req: unknown): number | undefined;
  search?(req: SearchLegRequest, signal: AbortSignal): Promise<SearchLegResult>;
  listing?(req: ListingRequest, signal: AbortSignal): Promise<Adapted<Property> | null>;
  price?(req: PriceRequest, signal: AbortSignal): Promise<Adapted<Price> | null>;
  availability?(req: AvailabilityRequest, signal: AbortSignal): Promise<Adapted<CalendarDay[]> | null>;
  reviews?(req: ReviewsRequest, signal: AbortSignal): Promise<ReviewsLegResult | null>;
  priceCompare?(req: PriceCompareRequest, signal: AbortSignal): Promise<Adapted<OfferSet> | null>;
}

/** A value plus what the adapter could not extract or had to say about it. */
export interface Adapted<T> {
  value: T;
  warnings: Warning[];
}

/** The adapters one key environment (sandbox or live) may use. */
export interface AdapterSet {
  get(platform: Platform): PlatformAdapter | undefined;
  /** Platforms that serve `op`, in capability-matrix order. */
  supporting(op: Operation): Platform[];
}

export interface Occupancy {
  adults: number;
  children: number;
  childAges: number[];
}

export interface SearchQuery {
  /** A place name or "lat,lng"; for a bbox search, the box's centre as "lat,lng". */
  location: string;
  /** The radius or box searched and the centre distances are measured from (issue 25 item 1). */
  area: SearchArea;
  checkIn: string | null;
  checkOut: string | null;
  occupancy: Occupancy;
  rooms: number;
  propertyTypes: PropertyType[];
  amenities: Amenity[];
  minBedrooms: number | null;
  priceMin: number | null;
  priceMax: number | null;
  minGuestRating: number | null;
  /** Issue 25: only stays with a refundable (true) or non-refundable (false) offer; null: any. */
  refundable: boolean | null;
  /** Issue 25: only stays with an offer of at least this board; null: any. */
  board: Board | null;
  platforms: Platform[];
  sort: SearchSort;
  currency: string;
}

export interface SearchLegRequest {
  query: SearchQuery;
  /** Items of this platform already returned on earlier pages. */
  offset: number;
  /** How many items to return at most, in `query.sort` order. */
  count: number;
}

export interface SearchLegResult {
  items: Property[];
  hasMore: boolean;
  warnings: Warning[];
  /** Where the platform took `location` to be, when it says (issue 16: meta.resolved). */
  place?: ResolvedPlace;
  /** Other places of that name the platform could have meant, likeliest first. */
  alternatives?: ResolvedPlace[];
}

export interface Stay {
  checkIn: string;
  checkOut: string;
  occupancy: Occupancy;
}

export interface ListingRequest {
  listingId: string;
  currency: string;
  stay: Stay | null;
}

export interface PriceRequest extends Stay {
  listingId: string;
  currency: string;
}

export interface AvailabilityRequest {
  listingId: string;
  startDate: string;
  endDate: string;
  /** The currency of the calendar's nightly prices (issue 25 item 5). */
  currency: string;
}

export const REVIEW_SORTS = ['recent', 'rating_desc', 'rating_asc'] as const;
export type ReviewSort = (typeof REVIEW_SORTS)[number];

export interface ReviewsRequest {
  listingId: string;
  offset: number;
  count: number;
  language: string | null;
  minRating: number | null;
  /** Keep reviews whose title, text, liked or disliked contain this, case-insensitively (issue 25). */
  q: string | null;
  /** The caller wants meta.reviewSummary: a platform that states it on another page may fetch that too (at no extra credit). */
  summary: boolean;
  sort: ReviewSort;
}

export interface ReviewsLegResult {
  reviews: Review[];
  hasMore: boolean;
  warnings: Warning[];
  /** What the answer states about all of the listing's reviews (meta.reviewSummary), when it does. */
  stated?: StatedReviewSummary;
}

export interface PriceCompareRequest extends Stay {
  name: string | null;
  googleHotelId: string | null;
  location: string | null;
  currency: string;
}

export interface OfferSet {
  property: string;
  googleHotelId: string;
  /** The matched property's address, when the platform gives one (meta.resolved.property). */
  address?: string | null;
  offers: Offer[];
}

export interface LegFailureOptions {
  /** The client-facing reason; by default derived from the status. */
  error?: LegError;
  /**
   * The platform itself failed (network error, timeout, 5xx, blocked answer): only such failures
   * count toward its circuit breaker. Defaults to true for `blocked` and `timeout`.
   */
  platformFault?: boolean;
}

const DEFAULT_ERROR: Record<Exclude<LegStatus, 'ok' | 'empty'>, LegError> = { failed: 'upstream_error', blocked: 'upstream_blocked', timeout: 'upstream_timeout' };

/** A platform leg that did not produce data. Its status is reported and it is charged 0. */
export class LegFailure extends Error {
  readonly status: Exclude<LegStatus, 'ok' | 'empty'>;
  readonly error: LegError;
  readonly platformFault: boolean;
  constructor(status: Exclude<LegStatus, 'ok' | 'empty'>, message: string, options: LegFailureOptions = {}) {
    super(message);
    this.name = 'LegFailure';
    this.status = status;
    this.error = options.error ?? DEFAULT_ERROR[status];
    this.platformFault = options.platformFault ?? status !== 'failed';
  }
}

/**
 * A leg ended on our side before the platform answered: its deadline passed (while it waited for a
 * connection, just after it was granted one, or with its request in flight). (A caller that goes
 * away does not end its legs: they run on, and fill the cache.) The client sees a `timeout`; a circuit breaker hears nothing of it, since it tells
 * nothing about the platform: neither a fault nor a sign of health (issue 35). A platform slow
 * enough to be at fault is caught by the client's own per-attempt timeout, which is a fault.
 */
export class LegAbandoned extends LegFailure {
  constructor(message: string) {
    super('timeout', message, { platformFault: false });
    this.name = 'LegAbandoned';
  }
}

/**
 * The platform answered, but in a shape the parser does not know (a required part missing, a
 * type changed): a format change on the platform's side. `message` is the parser's reason, for
 * the log only; the client sees `upstream_format_changed`. Never a platform fault.
 */
export class UpstreamFormatError extends LegFailure {
  constructor(message: string) {
    super('failed', message, { error: 'upstream_format_changed', platformFault: false });
    this.name = 'UpstreamFormatError';
  }
}
