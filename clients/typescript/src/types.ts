import type { components, operations } from './api.js';

/**
 * Every type the SDK exposes is read off the generated OpenAPI types (api.ts), so a change of the
 * contract changes these with it: nothing here restates a field.
 */
type Schemas = components['schemas'];

/** The resources, by the names the OpenAPI document gives them. */
export type Platform = Schemas['Platform'];
export type Property = Schemas['Property'];
export type Review = Schemas['Review'];
export type AvailabilityItem = Schemas['AvailabilityItem'];
export type Price = Schemas['Price'];
export type PriceCompare = Schemas['PriceCompare'];
export type Account = Schemas['Account'];
export type Meta = Schemas['Meta'];
export type Pagination = Schemas['Pagination'];
export type Warning = Schemas['Warning'];
export type JobHandle = Schemas['JobHandle'];

/** The operations of the SDK's methods, by their OpenAPI operationId. */
export type DataOperation = 'search' | 'availability' | 'listing' | 'price' | 'priceCompare' | 'reviews';

type QueryOf<Op extends keyof operations> = operations[Op]['parameters'] extends { query?: infer Q } ? NonNullable<Q> : never;

export type SearchParams = QueryOf<'search'>;
export type AvailabilityParams = QueryOf<'availability'>;
/** GET /listing/{platform}/{id}: the path's two parts beside the query. */
export type ListingParams = operations['listing']['parameters']['path'] & QueryOf<'listing'>;
export type PriceParams = QueryOf<'price'>;
export type PriceCompareParams = QueryOf<'priceCompare'>;
export type ReviewsParams = QueryOf<'reviews'>;

export type ParamsOf<Op extends DataOperation> = Op extends 'listing' ? ListingParams : QueryOf<Op>;

/** A 200 body of an operation, every form it can take (full, dry-run estimate, fields-shaped). */
export type OkBody<Op extends keyof operations> = operations[Op]['responses'] extends { 200: { content: { 'application/json': infer Body } } } ? Body : never;

export type EstimateAnswer = Schemas['EstimateAnswer'];
export type ShapedAnswer = Schemas['ShapedAnswer'];
/** 202: a slow live scrape became a job; `waitForJob(answer.data.jobId)` gets its result. */
export type Accepted = Schemas['Accepted'];
export type JobAnswer = Schemas['JobResponse'];
export type AccountAnswer = OkBody<'account'>;
export type PlatformsAnswer = OkBody<'platforms'>;
export type ErrorBody = Schemas['Error'];
export type ErrorCode = ErrorBody['error']['code'];
export type SubCode = NonNullable<ErrorBody['error']['subCode']>;

/**
 * The 200 body a call with these params gets: the estimate for `dryRun: true`, the shaped envelope
 * for `fields` or `view: "compact"`, the full answer when the params rule both out, and the union
 * when they are not known at compile time.
 */
export type Answer<Op extends DataOperation, P> = Form<P> extends { dryRun: true }
  ? Extract<OkBody<Op>, EstimateAnswer>
  : Form<P> extends { dryRun?: false; fields?: never; view?: 'full' }
    ? FullBody<OkBody<Op>>
    : Form<P> extends { dryRun?: false } & ({ fields: readonly string[] } | { view: 'compact' })
      ? Extract<OkBody<Op>, ShapedAnswer> extends never ? never : ShapedAnswer
      : OkBody<Op>;

/**
 * The full answer among a 200's forms. Not `Exclude`: a full answer is also assignable to the
 * shaped envelope (whose fields are all optional), so the shaped form is told by identity.
 */
type FullBody<B> = B extends EstimateAnswer ? never : [B] extends [ShapedAnswer] ? ([ShapedAnswer] extends [B] ? never : B) : B;

/**
 * The params that choose the answer's form. Compared alone, because a params type naming none of
 * them would otherwise fail TypeScript's weak-type check against an all-optional target.
 */
type Form<P> = Pick<P, Extract<keyof P, 'dryRun' | 'fields' | 'view'>>;

/** One item of a listed answer's `data` (search results, reviews). */
export type ItemOf<A> = A extends { data: infer Data } ? (Data extends readonly (infer Item)[] ? Item : never) : never;

/** Params of a walk over every page: the SDK sets the cursor; a dry run has no pages. */
export type PagedParams<P> = Omit<P, 'cursor' | 'dryRun'>;

/** Per-call choices beside the operation's own params. */
export interface CallOptions {
  /**
   * Sent as `Prefer: wait=N` (at most 30): a call that would answer 202 waits up to N seconds
   * for its job and answers 200 if it ends in time.
   */
  waitSeconds?: number;
  /** Your own Idempotency-Key for this call; by default one is generated per call. */
  idempotencyKey?: string;
}

export interface WaitOptions {
  /** Give up (and throw) after this many seconds; default 600. */
  timeoutSeconds?: number;
}
