import type { Warning } from '../../../domain/model/common.js';
import type { Review } from '../../../domain/model/review.js';
import { RATING_SCALE } from '../../../domain/platforms.js';
import { LegFailure } from '../../../domain/ports.js';
import { dig, FieldWarnings, num, str } from '../parse-support.js';
import { answerKind } from './guards.js';
import { PLATFORM } from './parse.js';

/**
 * SerpApi `engine=google_maps_reviews` (Google Maps reviews of a place, keyed by `place_id`).
 *
 * NOT wired to the adapter's `reviews` operation, on purpose: the service's google listing id is
 * a Google Hotels `property_token`, and nothing recorded maps a token to a Maps `place_id` (the
 * property details answer carries none). The reviews of a token come from
 * `engine=google_hotels_reviews`, of which no sample exists; declaring reviews on this format
 * would either need a guessed mapping or review another place. This parser is kept, tested on
 * the recorded sample, for when a place id is at hand.
 */

export interface MapsReviewsPage {
  reviews: Review[];
  nextPageToken: string | null;
  warnings: Warning[];
}

/** `listingId` is the Maps place id the reviews were asked for; an answer for another place fails. */
export function parseMapsReviews(json: unknown, placeId: string): MapsReviewsPage {
  if (answerKind(json) === 'no_results') return { reviews: [], nextPageToken: null, warnings: [] };
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
  return { reviews, nextPageToken: str(dig(json, 'serpapi_pagination', 'next_page_token')), warnings: w.list };
}
