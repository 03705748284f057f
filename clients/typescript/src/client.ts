import { waitForJob } from './jobs.js';
import { everyItem } from './paging.js';
import { defaultFetch, newIdempotencyKey, type FetchLike } from './runtime.js';
import { send, type TransportOptions } from './transport.js';
import type {
  Accepted, AccountAnswer, Answer, AvailabilityParams, CallOptions, DataOperation, ItemOf, JobAnswer, ListingParams, PagedParams,
  PlatformsAnswer, PriceCompareParams, PriceParams, ReviewsParams, SearchParams, WaitOptions,
} from './types.js';

export interface ClientOptions {
  /** svc_test_... (sandbox: fixture data, free) or svc_live_... */
  apiKey: string;
  /** The service's address, e.g. https://api.example.com; `/v1` is added unless it ends in a version. */
  baseUrl: string;
  /** Defaults to the global fetch. */
  fetch?: FetchLike;
  /** Retries of one call after 429, a retryable 503 or 409, or a network failure; default 3. */
  maxRetries?: number;
  /** A Retry-After longer than this is not waited: the ApiError is thrown at once; default 60. */
  maxRetryWaitSeconds?: number;
}

/** What a data method resolves to: the 200 body for these params, or a 202's job handle. */
export type Result<Op extends DataOperation, P> = Promise<Answer<Op, P> | Accepted>;

/**
 * The Accommodation Data Service over REST /v1: one method per operation, each resolving to the
 * answer's body (`{ data, meta }`) typed from the OpenAPI document, or throwing an ApiError.
 * A data call that went async resolves to the 202's job handle (`isAccepted(answer)`): pass
 * `answer.data.jobId` to `waitForJob`.
 */
export class AccommodationClient {
  readonly #o: TransportOptions;

  constructor(options: ClientOptions) {
    if (!options.apiKey) throw new Error('AccommodationClient: apiKey is required.');
    const base = options.baseUrl.replace(/\/+$/, '');
    this.#o = {
      apiKey: options.apiKey,
      apiUrl: /\/v\d+$/.test(base) ? base : `${base}/v1`,
      fetch: options.fetch ?? defaultFetch(),
      maxRetries: options.maxRetries ?? 3,
      maxRetryWaitSeconds: options.maxRetryWaitSeconds ?? 60,
    };
  }

  search<P extends SearchParams>(params: P, options?: CallOptions): Result<'search', P> {
    return this.#data('/search', params, options);
  }

  availability<P extends AvailabilityParams>(params: P, options?: CallOptions): Result<'availability', P> {
    return this.#data('/availability', params, options);
  }

  listing<P extends ListingParams>(params: P, options?: CallOptions): Result<'listing', P> {
    const { platform, id, ...query } = params;
    return this.#data(`/listing/${encodeURIComponent(platform)}/${encodeURIComponent(id)}`, query, options);
  }

  price<P extends PriceParams>(params: P, options?: CallOptions): Result<'price', P> {
    return this.#data('/price', params, options);
  }

  priceCompare<P extends PriceCompareParams>(params: P, options?: CallOptions): Result<'priceCompare', P> {
    return this.#data('/price-compare', params, options);
  }

  reviews<P extends ReviewsParams>(params: P, options?: CallOptions): Result<'reviews', P> {
    return this.#data('/reviews', params, options);
  }

  /** The key's account: plan, credit balance, rate limit. Free. */
  async account(): Promise<AccountAnswer> {
    return (await send(this.#o, { path: '/account' })).body as AccountAnswer;
  }

  /** What each platform serves for this key. Free. */
  async platforms(): Promise<PlatformsAnswer> {
    return (await send(this.#o, { path: '/platforms' })).body as PlatformsAnswer;
  }

  /** One poll of a job, as it stands. Free. */
  async job(jobId: string): Promise<JobAnswer> {
    return (await send(this.#o, { path: `/jobs/${encodeURIComponent(jobId)}` })).body as JobAnswer;
  }

  /** Polls the job (long polls, `Prefer: wait`) until it completes or fails; see jobs.ts. */
  waitForJob(jobId: string, options?: WaitOptions): Promise<JobAnswer> {
    return waitForJob(this.#o, jobId, options);
  }

  /** Every search result over every page (`for await (const stay of client.searchAll({...}))`). */
  searchAll<P extends PagedParams<SearchParams>>(params: P): AsyncGenerator<ItemOf<Answer<'search', P>>, void, undefined> {
    return everyItem(this.#o, (cursor) => this.search({ ...params, ...(cursor ? { cursor } : {}) }));
  }

  /** Every review over every page. */
  reviewsAll<P extends PagedParams<ReviewsParams>>(params: P): AsyncGenerator<ItemOf<Answer<'reviews', P>>, void, undefined> {
    return everyItem(this.#o, (cursor) => this.reviews({ ...params, ...(cursor ? { cursor } : {}) }));
  }

  /** One data call: an Idempotency-Key made once, so its retries can never run (or bill) twice. */
  async #data<A>(path: string, query: object, options: CallOptions = {}): Promise<A> {
    const headers: Record<string, string> = { 'Idempotency-Key': options.idempotencyKey ?? newIdempotencyKey() };
    if (options.waitSeconds !== undefined) headers.Prefer = `wait=${Math.round(options.waitSeconds)}`;
    return (await send(this.#o, { path, query, headers })).body as A;
  }
}
