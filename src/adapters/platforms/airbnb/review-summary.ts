import type { StatedReviewSummary } from '../../../domain/reviews/summary.js';
import { dig, num, str } from '../parse-support.js';
import { section, sectionsOf } from './pdp-facts.js';

/**
 * Issue 25 item 4: what Airbnb's listing page (`StaysPdpSections`, section `REVIEWS_DEFAULT`)
 * states about all of a listing's reviews: `overallCount`, `overallRating` and the category
 * ratings (`ratings[].{label, localizedRating}`, on 5). It states no histogram and no topics.
 * The listing detail reads the same section. Null when the
 * page lacks the total or the rating: the summary is then computed over the reviews read.
 */
export function statedReviewSummary(json: unknown): StatedReviewSummary | null {
  const sections = sectionsOf(json);
  const reviews = sections === null ? undefined : section(sections, 'REVIEWS_DEFAULT');
  const count = num(dig(reviews, 'overallCount'));
  const average = num(dig(reviews, 'overallRating'));
  if (count === null || !Number.isInteger(count) || count < 0 || average === null || average < 0 || average > 5) return null;
  const raw = dig(reviews, 'ratings');
  const categories = (Array.isArray(raw) ? raw : []).flatMap((r) => {
    const name = str(dig(r, 'label'));
    const score = Number(str(dig(r, 'localizedRating')) ?? NaN);
    return name !== null && Number.isFinite(score) && score >= 0 && score <= 5 ? [{ name, score, scale: 5 }] : [];
  });
  return { count, average, histogram: null, categories: categories.length ? categories : null, mentions: null };
}
