import type { Warning } from '../../../domain/model/common.js';
import type { Review } from '../../../domain/model/review.js';
import { LegFailure, type ReviewsLegResult, type ReviewsRequest } from '../../../domain/ports/platform.js';
import { MAPS_REVIEW_SORT } from './client.js';
import { PLATFORM } from './parse.js';
import { parseMapsReviews } from './parse-reviews.js';
import { matchesKeyword, type StatedReviewSummary } from '../../../domain/reviews/summary.js';

/**
 * Google reviews come from Google Maps (SerpApi `engine=google_maps_reviews`), so the property is
 * resolved to its Maps place first, and the listing id of a google reviews call is that place id
 * (`ChIJ…`, Google's Place ID). The answer's `place_info` names the place reviewed, and an answer
 * for another place fails the leg. A Google Hotels property token is not a place id: no recorded
 * answer leads from a token to its place (the property details carry no place id), so a token
 * is refused before any upstream call (domain/listing-ids/operation-ids.ts) rather than resolved by a guess.
 *
 * Pages follow SerpApi's `next_page_token` from the first, newest first (or by rating, which
 * Google sorts itself), until the window plus one review is known; `hasMore` trusts the token and
 * the place's total. Maps reviews state no language, so a language filter matches none (said in
 * a warning); a minimum rating is applied after retrieval.
 */
export interface MapsReviewsDeps {
  fetchPage(placeId: string, sortBy: string, pageToken: string | null): Promise<unknown>;
  maxPages: number;
}

const warn = (code: string, message: string): Warning => ({ code, message, platform: PLATFORM });

export async function mapsReviewsLeg(req: ReviewsRequest, deps: MapsReviewsDeps): Promise<ReviewsLegResult | null> {
  if (req.language !== null) {
    return { reviews: [], hasMore: false, warnings: [warn('filter_unsupported', 'Google Maps reviews do not state their language, so a language filter matches none of them.')] };
  }
  const keep = (r: Review) => (req.minRating === null || (r.rating !== null && r.rating >= req.minRating)) && matchesKeyword(r, req.q);
  const need = req.offset + req.count + 1;
  const seen = new Set<string>();
  const matched: Review[] = [];
  const warnings: Warning[] = [];
  let token: string | null = null;
  let total: number | null = null;
  let stated: StatedReviewSummary | undefined;
  let pages = 0;
  do {
    const page = parseMapsReviews(await deps.fetchPage(req.listingId, MAPS_REVIEW_SORT[req.sort], token), req.listingId);
    if (pages === 0 && page.placeName === null && page.reviews.length === 0 && page.nextPageToken === null) return null;
    pages++;
    total = page.total ?? total;
    stated ??= page.stated ?? undefined;
    warnings.push(...page.warnings.filter((w) => !warnings.some((x) => x.code === w.code && x.message === w.message)));
    const fresh = page.reviews.filter((r) => !seen.has(r.reviewId) && seen.add(r.reviewId));
    if (page.reviews.length > 0 && fresh.length === 0) throw new LegFailure('failed', `google repeated a page of reviews of ${req.listingId}`);
    matched.push(...fresh.filter(keep));
    token = page.nextPageToken;
  } while (token !== null && matched.length < need && pages < deps.maxPages);

  if (req.minRating !== null || req.q !== null) warnings.push(warn('filter_applied_after_retrieval', 'Google review minRating and keyword (q) filters are applied after retrieval, so pages may hold fewer reviews.'));
  if (token !== null && matched.length < need) warnings.push(warn('results_truncated', `Only the first ${pages} pages of google reviews were read.`));
  // The cursor (next_page_token) says more exist; without one, the list has ended here.
  const hasMore = matched.length > req.offset + req.count || (token !== null && (total === null || seen.size < total));
  return { reviews: matched.slice(req.offset, req.offset + req.count), hasMore, warnings, ...(stated ? { stated } : {}) };
}
