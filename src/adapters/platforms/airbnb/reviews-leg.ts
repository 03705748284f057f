import type { Warning } from '../../../domain/model/common.js';
import type { Review } from '../../../domain/model/review.js';
import type { ReviewsLegResult, ReviewsRequest } from '../../../domain/ports/platform.js';
import { FieldWarnings } from '../parse-support.js';
import { matchesKeyword } from '../../../domain/reviews/summary.js';
import { parseReviewsPage, type ReviewsPage } from './parse-reviews.js';

export interface ReviewsLegDeps {
  /** One StaysPdpReviewsQuery page (most recent first) at an offset. */
  fetchPage(offset: number, limit: number): Promise<unknown>;
  pageSize: number;
  maxPages: number;
}

/**
 * Reviews are read most recent first at Airbnb's offsets. Without filters the leg reads just its
 * window plus one review, and `hasMore` also trusts Airbnb's own total (`metadata.reviewsCount`); a language or rating filter, or a rating sort,
 * is applied after retrieval over the reviews read from the first one (up to `maxPages` pages).
 */
export async function reviewsLeg(req: ReviewsRequest, deps: ReviewsLegDeps): Promise<ReviewsLegResult | null> {
  const w = new FieldWarnings('airbnb');
  const filtered = req.language !== null || req.minRating !== null || req.q !== null;
  const scan = filtered || req.sort !== 'recent';
  const keep = (r: Review) => (req.language === null || r.language === req.language) && (req.minRating === null || (r.rating !== null && r.rating >= req.minRating)) && matchesKeyword(r, req.q);
  const need = req.sort !== 'recent' ? Infinity : scan ? req.offset + req.count + 1 : req.count + 1;

  const matched: Review[] = [];
  let position = scan ? 0 : req.offset;
  let exhausted = false;
  let total: number | null = null;
  let pages = 0;
  while (matched.length < need && pages < deps.maxPages) {
    const limit = scan ? deps.pageSize : Math.min(deps.pageSize, need - matched.length);
    const page: ReviewsPage | null = parseReviewsPage(await deps.fetchPage(position, limit), req.listingId, w);
    if (page === null) return null;
    pages++;
    matched.push(...page.reviews.filter(keep));
    position += page.pageCount;
    total = page.total ?? total;
    // The platform's total decides where the reviews end: a short page is not the end when the
    // total says more exist (Airbnb answers 24 of 30 asked with 135 in all). Only without a total
    // does a short page end them; an empty page always stops the walk.
    if (page.pageCount === 0 || (page.total !== null ? position >= page.total : page.pageCount < limit)) {
      exhausted = page.total === null || position >= page.total;
      break;
    }
  }

  if (req.sort !== 'recent') {
    const dir = req.sort === 'rating_desc' ? -1 : 1;
    // Stable: equal ratings keep Airbnb's most-recent-first order; unrated reviews go last.
    matched.sort((a, b) => (a.rating === null || b.rating === null ? Number(a.rating === null) - Number(b.rating === null) : dir * (a.rating - b.rating)));
  }
  const start = scan ? req.offset : 0;
  const warnings: Warning[] = [...w.list];
  if (filtered) warnings.push({ code: 'filter_applied_after_retrieval', message: 'Airbnb review language, rating and keyword (q) filters are applied after retrieval.', platform: 'airbnb' });
  if (!exhausted && matched.length < need) warnings.push({ code: 'results_truncated', message: `Only the ${position} most recent airbnb reviews were read.`, platform: 'airbnb' });
  const moreByTotal = !scan && total !== null && req.offset + Math.min(matched.length, req.count) < total;
  return { reviews: matched.slice(start, start + req.count), hasMore: matched.length > start + req.count || moreByTotal, warnings };
}
