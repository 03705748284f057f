import { matchesKeyword } from '../../../domain/reviews/summary.js';
import type { Review } from '../../../domain/model/review.js';
import type { ReviewsLegResult, ReviewsRequest } from '../../../domain/ports/platform.js';
import { FieldWarnings } from '../parse-support.js';
import { reviewListRequest } from './client.js';
import { parseReviewCard, parseReviewPage } from './parse-reviews.js';
import type { HotelKey } from './resolve.js';
import type { Fetch } from './search.js';

export interface ReviewLimits {
  /** Reviews asked for per upstream page. */
  pageSize: number;
  /** Most reviews read when filters or a rating order are applied after retrieval. */
  maxScan: number;
}

interface Page {
  reviews: Review[];
  sent: number;
  total: number | null;
}

/** Null ratings last; equal ratings keep Booking.com's newest-first order. */
function byRating(dir: 1 | -1) {
  return (a: Review, b: Review) => (a.rating === null ? 1 : 0) - (b.rating === null ? 1 : 0) || dir * ((a.rating ?? 0) - (b.rating ?? 0));
}

/**
 * One reviews leg. Newest first with no filter: Booking.com's own paging (skip/limit). A
 * language filter is also sent upstream, but a language, a minimum rating or a rating order is
 * applied here over the newest `maxScan` reviews (reviews in an unknown language do not match a
 * language filter), with warnings saying so and saying when the scan stopped short.
 */
export async function reviewsLeg(fetch: Fetch, hotel: HotelKey, req: ReviewsRequest, limits: ReviewLimits): Promise<ReviewsLegResult> {
  const w = new FieldWarnings('booking');
  const page = async (skip: number, limit: number, language: string | null): Promise<Page> => {
    const { cards, total } = parseReviewPage(await fetch(reviewListRequest({ ...hotel, skip, limit, language })));
    const reviews = cards.map((c) => parseReviewCard(c, req.listingId, w)).filter((r): r is Review => r !== null);
    return { reviews, sent: cards.length, total };
  };

  if (!req.language && req.minRating === null && req.q === null && req.sort === 'recent') {
    const limit = Math.min(req.count, 100);
    const p = await page(req.offset, limit, null);
    if (p.total !== null && req.offset >= p.total) return { reviews: [], hasMore: false, warnings: w.list };
    const hasMore = p.total !== null ? req.offset + p.sent < p.total : p.sent >= limit;
    return { reviews: p.reviews.slice(0, req.count), hasMore, warnings: w.list };
  }

  const first = await page(0, limits.pageSize, req.language);
  const pages = [first];
  let read = first.sent;
  // The platform's total says where the list ends; only without one does a short page end it.
  let exhausted = first.total !== null ? read >= first.total : first.sent < limits.pageSize;
  // Pages at fixed offsets in parallel only when the platform fills its pages; a short first
  // page with a larger total is followed page by page from where it ended.
  const parallel = !exhausted && first.total !== null && first.sent >= limits.pageSize;
  if (parallel && first.total !== null) {
    const skips: number[] = [];
    for (let s = limits.pageSize; s < Math.min(limits.maxScan, first.total); s += limits.pageSize) skips.push(s);
    const rest = await Promise.all(skips.map((s) => page(s, limits.pageSize, req.language)));
    pages.push(...rest);
    read += rest.reduce((n, p) => n + p.sent, 0);
    exhausted = read >= first.total;
  }
  while (!exhausted && !parallel && read < limits.maxScan) {
    const p = await page(read, limits.pageSize, req.language);
    pages.push(p);
    read += p.sent;
    exhausted = p.sent === 0 || (first.total !== null ? read >= first.total : p.sent < limits.pageSize);
  }

  const seen = new Set<string>();
  const all = pages.flatMap((p) => p.reviews).filter((r) => !seen.has(r.reviewId) && seen.add(r.reviewId));
  let matched = all.filter((r) => (!req.language || r.language === req.language) && (req.minRating === null || (r.rating !== null && r.rating >= req.minRating)) && matchesKeyword(r, req.q));
  if (req.minRating !== null || req.q !== null || matched.length < all.length) {
    w.add('filter_applied_after_retrieval', 'booking: review filters applied after retrieval, so pages may hold fewer reviews.');
  }
  if (req.sort !== 'recent') matched = [...matched].sort(byRating(req.sort === 'rating_desc' ? -1 : 1));
  if (!exhausted) {
    w.add('results_truncated', `booking: filters and ordering were applied to the newest ${read} of ${first.total ?? 'more'} reviews only.`);
  }
  return { reviews: matched.slice(req.offset, req.offset + req.count), hasMore: matched.length > req.offset + req.count, warnings: w.list };
}
