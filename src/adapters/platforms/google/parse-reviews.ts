import type { Warning } from '../../../domain/model/common.js';
import type { Review } from '../../../domain/model/review.js';
import { RATING_SCALE } from '../../../domain/platforms.js';
import { LegFailure } from '../../../domain/ports/platform.js';
import { dig, FieldWarnings, num, str } from '../parse-support.js';
import { answerKind } from './guards.js';
import { PLATFORM } from './parse.js';
import type { StatedReviewSummary } from '../../../domain/reviews/summary.js';

/**
 * SerpApi `engine=google_maps_reviews` (Google Maps reviews of a place, keyed by `place_id`), as
 * recorded in ../shared/upstream-samples/google/anon-serpapi-google_maps_reviews-goa-hotel.json.
 * The google reviews leg reads it for a Maps place id (see reviews-leg.ts for how the property
 * is resolved). `place_info.reviews` is the place's review total.
 */

export interface MapsReviewsPage {
  reviews: Review[];
  nextPageToken: string | null;
  /** `place_info.reviews`: every review of the place, when stated. */
  total: number | null;
  /** `place_info.title`: the place the reviews are of. */
  placeName: string | null;
  /** `place_info.reviews` and `.rating`: the place's own total and average (issue 25), when both are stated. */
  stated: StatedReviewSummary | null;
  warnings: Warning[];
}

/** `listingId` is the Maps place id the reviews were asked for; an answer for another place fails. */
export function parseMapsReviews(json: unknown, placeId: string): MapsReviewsPage {
  if (answerKind(json) === 'no_results') return { reviews: [], nextPageToken: null, total: null, placeName: null, stated: null, warnings: [] };
  const echoed = str(dig(json, 'search_parameters', 'place_id')) ?? str(dig(json, 'search_parameters', 'data_id'));
  if (echoed !== placeId) throw new LegFailure('failed', `google answered for place ${echoed ?? '(unstated)'}, not ${placeId}`);
  const w = new FieldWarnings(PLATFORM);
  const raw = dig(json, 'reviews');
  const reviews: Review[] = [];
  for (const r of Array.isArray(raw) ? raw : []) {
    const reviewId = str(dig(r, 'review_id'));
    const date = /^(\d{4}-\d{2}-\d{2})T/.exec(str(dig(r, 'iso_date')) ?? '')?.[1] ?? null;
    if (reviewId === null || date === null) {
      w.add('item_skipped', 'A google review without an id or a date was left out.');
      continue;
    }
    const rating = num(dig(r, 'rating'));
    reviews.push({
      platform: PLATFORM,
      listingId: placeId,
      reviewId,
      rating: rating !== null && rating >= 1 && rating <= 5 ? rating : w.missing('rating'),
      ratingScale: RATING_SCALE[PLATFORM],
      title: null,
      // A rating-only Google review has no text at all: null, not "".
      text: str(dig(r, 'snippet')) ?? str(dig(r, 'extracted_snippet', 'original')),
      author: str(dig(r, 'user', 'name')) ?? w.missing('author'),
      date,
      tripType: str(dig(r, 'details', 'trip_type')),
      // Maps reviews carry no language (and hl may translate them): unknown, not assumed.
      language: null,
      locale: null,
      ownerResponse: str(dig(r, 'response', 'snippet')),
      liked: null,
      disliked: null,
    });
  }
  const total = num(dig(json, 'place_info', 'reviews'));
  const count = total !== null && Number.isInteger(total) && total >= 0 ? total : null;
  const average = num(dig(json, 'place_info', 'rating'));
  // Maps states the place's total and average only: no histogram, no category scores, no topics.
  const stated = count !== null && average !== null && average >= 1 && average <= 5 ? { count, average, histogram: null, categories: null, mentions: null } : null;
  return {
    reviews,
    nextPageToken: str(dig(json, 'serpapi_pagination', 'next_page_token')),
    total: total !== null && Number.isInteger(total) && total >= 0 ? total : null,
    placeName: str(dig(json, 'place_info', 'title')),
    stated,
    warnings: w.list,
  };
}
