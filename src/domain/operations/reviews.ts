import { decodeCursor, encodeCursor, queryHash } from './cursor.js';
import { ServiceError } from '../errors.js';
import { listingIdProblem } from '../listing-ids/operation-ids.js';
import { runLeg } from './fan-out.js';
import type { Review } from '../model/review.js';
import { RATING_SCALE, type Platform } from '../platforms.js';
import { summarizeReviews } from '../reviews/summary.js';
import { assertListingIds } from '../listing-ids/id-shapes.js';
import type { ReviewSort, ReviewsLegResult } from '../ports/platform.js';
import { adapterFor, assertSomeLegSucceeded, listingNotFound, noResults, report, slot, type OperationEnv, type OperationResult } from './shared.js';

export interface ReviewsParams {
  platform: Platform;
  listingId: string;
  limit: number;
  cursor: string | null;
  language: string | null;
  minRating: number | null;
  q: string | null;
  /** Add meta.reviewSummary (issue 25); changes neither the reviews read nor the price. */
  summary: boolean;
  sort: ReviewSort;
  /** The input the id came from (listingId or url), named by a 400. */
  idParam: string;
}

/** spec 4.7: normalised reviews of one listing, paginated by an opaque cursor bound to the query. */
export async function getReviews(env: OperationEnv, params: ReviewsParams): Promise<OperationResult<Review[]>> {
  const adapter = adapterFor(env, 'reviews', params.platform);
  assertListingIds(params.platform, [params.listingId], params.idParam, env.keyEnv);
  const problem = listingIdProblem(params.platform, 'reviews', params.listingId);
  if (problem !== null) throw new ServiceError('invalid_listing_id', problem, { param: params.idParam });
  const { limit, cursor, idParam: _idParam, ...bound } = params;
  const withSummary = params.summary;
  const hash = queryHash({ op: 'reviews', ...bound });
  const offset = cursor ? (decodeCursor(env.cursorSecret, hash, cursor).positions.offset ?? 0) : 0;

  env.beforeUpstream('reviews', { platforms: [params.platform], maxItems: limit });
  const leg = await runLeg<ReviewsLegResult | null>(
    {
      platform: params.platform,
      operation: 'reviews',
      expectedMs: adapter.expectedMs?.('reviews', { ...bound, offset, count: limit }),
      run: (signal) => adapter.reviews!({ ...bound, offset, count: limit }, signal),
      count: (v) => v?.reviews.length ?? 0,
      cache: slot(env, 'reviews', { ...bound, offset, count: limit }),
    },
    env,
  );
  assertSomeLegSucceeded([leg]);
  if (leg.value === null) throw listingNotFound(params.platform, params.listingId);

  const reviews = leg.value?.reviews ?? [];
  const hasMore = leg.value?.hasMore ?? false;
  const warnings = [...leg.warnings, ...(leg.value?.warnings ?? [])];
  if (reviews.length === 0) warnings.push(noResults('reviews'));
  const verdict = withSummary ? summarizeReviews(params.platform, RATING_SCALE[params.platform], reviews, leg.value?.stated ?? null) : null;
  if (verdict) warnings.push(...verdict.warnings);
  return {
    operation: 'reviews',
    data: reviews,
    platforms: [params.platform],
    legs: [report(leg)],
    warnings,
    pagination: {
      limit,
      cursor,
      nextCursor: hasMore ? encodeCursor(env.cursorSecret, hash, { positions: { offset: offset + reviews.length } }) : null,
      hasMore,
    },
    currency: 'USD',
    ...(verdict ? { reviewSummary: verdict.summary } : {}),
  };
}
