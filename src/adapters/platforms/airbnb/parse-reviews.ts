import { isIsoDate } from '../../../domain/dates.js';
import { languageTag } from '../../../domain/locale.js';
import type { Review } from '../../../domain/model/review.js';
import { dig, num, str, type FieldWarnings } from '../parse-support.js';
import { missingPayload } from './graphql.js';

export interface ReviewsPage {
  reviews: Review[];
  /** Reviews in the page, including any that could not be read. */
  pageCount: number;
  /** `metadata.reviewsCount`: all reviews of the listing, every language. */
  total: number | null;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', '#39': "'" };

/** Airbnb review text is HTML with `<br/>` line breaks. */
export function htmlToText(html: string): string {
  return html
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#\d+|#x[0-9a-f]+|[a-z]+);/gi, (all, e: string) => {
      if (ENTITIES[e.toLowerCase()] !== undefined) return ENTITIES[e.toLowerCase()]!;
      const code = e.startsWith('#x') || e.startsWith('#X') ? parseInt(e.slice(2), 16) : e.startsWith('#') ? Number(e.slice(1)) : NaN;
      return Number.isFinite(code) ? String.fromCodePoint(code) : all;
    })
    .trim();
}

/** Review text: null when the payload carries none (or only markup), never an empty string. */
function textOf(html: string | null): string | null {
  const text = html === null ? '' : htmlToText(html);
  return text === '' ? null : text;
}

/**
 * The trip label Airbnb prints under a reviewer's name: `reviewHighlight` ("Group trip", "Stayed
 * with kids") when its sibling `highlightType` is `TYPE_OF_TRIP`, kept in Airbnb's words. Airbnb
 * shows one highlight per review, so a review highlighted for its length of stay
 * (`LENGTH_OF_STAY`: "Stayed a few nights") or for nothing states no trip type: null. A trip label
 * in another shape than a string is not read, and a warning says so.
 */
function tripLabelOf(review: unknown, w: FieldWarnings): string | null {
  if (dig(review, 'highlightType') !== 'TYPE_OF_TRIP') return null;
  const label = dig(review, 'reviewHighlight');
  if (typeof label === 'string') return label.trim() === '' ? null : label.trim();
  if (label !== null && label !== undefined) w.missing('tripType', 'an airbnb trip label (reviewHighlight of type TYPE_OF_TRIP) is not text and was not read');
  return null;
}

/**
 * A `StaysPdpReviewsQuery` response → reviews in Airbnb's order. Airbnb reviews have no title or
 * liked/disliked split: those are null; the trip type is the review's trip label, where it has
 * one. The original-language `comments` are the text.
 */
export function parseReviewsPage(json: unknown, listingId: string, w: FieldWarnings): ReviewsPage | null {
  const container = dig(json, 'data', 'presentation', 'stayProductDetailPage', 'reviews');
  const list = dig(container, 'reviews');
  if (!Array.isArray(list)) return missingPayload(json, 'reviews');
  const reviews: Review[] = [];
  for (const r of list) {
    const id = dig(r, 'id');
    const reviewId = typeof id === 'number' ? String(id) : str(id);
    const date = str(dig(r, 'createdAt'))?.slice(0, 10) ?? null;
    if (reviewId === null || date === null || !isIsoDate(date)) {
      w.add('review_skipped', 'An airbnb review without an id or a date was left out.');
      continue;
    }
    const rating = num(dig(r, 'rating'));
    const response = str(dig(r, 'response'));
    const tag = languageTag(str(dig(r, 'language')));
    reviews.push({
      platform: 'airbnb',
      listingId,
      reviewId,
      rating: rating !== null && rating >= 1 && rating <= 5 ? rating : w.missing('rating', 'a review has no 1-5 rating'),
      ratingScale: 5,
      title: null,
      text: textOf(str(dig(r, 'comments'))),
      author: str(dig(r, 'reviewer', 'firstName')),
      date,
      tripType: tripLabelOf(r, w),
      language: tag.language ?? w.missing('language', 'a review does not say its language'),
      locale: tag.locale,
      ownerResponse: response === null ? null : htmlToText(response),
      liked: null,
      disliked: null,
    });
  }
  return { reviews, pageCount: list.length, total: num(dig(container, 'metadata', 'reviewsCount')) };
}
