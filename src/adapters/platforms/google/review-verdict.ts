import type { ReviewMention } from '../../../domain/model/review-summary.js';
import type { StatedReviewSummary } from '../../../domain/reviews/summary.js';
import { dig, num, str, type FieldWarnings } from '../parse-support.js';

const count = (v: unknown): number | null => {
  const n = num(v);
  return n !== null && Number.isInteger(n) && n >= 0 ? n : null;
};

/** `ratings[]` ({stars, count}) as reviews per star, 5 down to 1; null when a line is not a whole star and count, or repeats a star. */
function histogramOf(raw: unknown): StatedReviewSummary['histogram'] {
  if (!Array.isArray(raw) || raw.length === 0) return null;
  const byStar = new Map<number, number>();
  for (const line of raw) {
    const stars = count(dig(line, 'stars'));
    const n = count(dig(line, 'count'));
    if (stars === null || stars < 1 || stars > 5 || n === null || byStar.has(stars)) return null;
    byStar.set(stars, n);
  }
  // A star google does not list has no reviews: the total check (domain/reviews/summary.ts) says whether that holds.
  return [5, 4, 3, 2, 1].map((rating) => ({ rating, count: byStar.get(rating) ?? 0 }));
}

/**
 * `reviews_breakdown[]` as mentions, most mentioned first: the topic is google's `description`
 * ("Bathroom and toiletries"; its `name`, "Bathroom", when there is none). A topic whose
 * positive, negative and neutral do not add up to `total_mentioned` is left out with a warning.
 */
function mentionsOf(raw: unknown, w: FieldWarnings): ReviewMention[] | null {
  if (!Array.isArray(raw) || raw.length === 0) return null;
  const mentions = raw.flatMap((t): ReviewMention[] => {
    const topic = str(dig(t, 'description')) ?? str(dig(t, 'name'));
    const [mentioned, positive, negative, neutral] = ['total_mentioned', 'positive', 'negative', 'neutral'].map((k) => count(dig(t, k)));
    if (topic === null || mentioned == null || positive == null || negative == null || neutral == null || positive + negative + neutral !== mentioned) {
      w.add('item_skipped', `reviewSummary.mentions: a topic google states without a name or with counts that do not add up (${topic ?? 'unnamed'}) was left out`);
      return [];
    }
    return [{ topic, mentioned, positive, negative, neutral }];
  });
  // Stable sort: topics mentioned equally often keep google's order.
  return mentions.length ? mentions.sort((a, b) => b.mentioned - a.mentioned) : null;
}

/**
 * Issue 25: what google's property details state about all of a property's reviews: `reviews`
 * (the total), `overall_rating`, `ratings[]` (the star histogram), `location_rating` (a score on
 * 5, the only category score google states) and `reviews_breakdown[]` (the topics reviewers
 * mention, and how). Null when the total or the rating is missing.
 */
export function statedDetailsSummary(json: unknown, w: FieldWarnings): StatedReviewSummary | null {
  const total = count(dig(json, 'reviews'));
  const average = num(dig(json, 'overall_rating'));
  if (total === null || average === null || average < 1 || average > 5) return null;
  const location = num(dig(json, 'location_rating'));
  const categories = location !== null && location >= 0 && location <= 5 ? [{ name: 'Location', score: location, scale: 5 }] : null;
  return { count: total, average, histogram: histogramOf(dig(json, 'ratings')), categories, mentions: mentionsOf(dig(json, 'reviews_breakdown'), w) };
}
