import type { Warning } from '../model/common.js';
import type { Review, ReviewSummary } from '../model/review.js';
import type { Platform } from '../platforms.js';

/** What a platform's reviews answer states about all of a listing's reviews (issue 25 item 4). */
export interface StatedReviewSummary {
  count: number;
  average: number | null;
  /** Reviews per whole rating, when the platform states them; must add up to `count`. */
  histogram: { rating: number; count: number }[] | null;
  categories: { name: string; score: number; scale: number }[] | null;
}

const round2 = (v: number) => Math.round(v * 100) / 100;
const mean = (values: number[]) => (values.length ? round2(values.reduce((a, b) => a + b, 0) / values.length) : null);

/** Reviews per whole rating (the nearest, for 10-scale decimals), highest first; unrated reviews are not counted. */
export function histogramOf(reviews: Review[], scale: 5 | 10): { rating: number; count: number }[] {
  const counts = new Map<number, number>();
  for (let r = scale; r >= 1; r--) counts.set(r, 0);
  for (const review of reviews) {
    if (review.rating === null) continue;
    const bucket = Math.min(scale, Math.max(1, Math.round(review.rating)));
    counts.set(bucket, counts.get(bucket)! + 1);
  }
  return [...counts].map(([rating, count]) => ({ rating, count }));
}

/** Reviews and mean rating per stated trip type, most reviews first (ties by name). */
export function byTripTypeOf(reviews: Review[]): ReviewSummary['byTripType'] {
  const groups = new Map<string, Review[]>();
  for (const r of reviews) if (r.tripType !== null) groups.set(r.tripType, [...(groups.get(r.tripType) ?? []), r]);
  if (groups.size === 0) return null;
  return [...groups]
    .map(([tripType, list]) => ({ tripType, count: list.length, average: mean(list.flatMap((r) => (r.rating === null ? [] : [r.rating]))) }))
    .sort((a, b) => b.count - a.count || (a.tripType < b.tripType ? -1 : 1));
}

/**
 * The summary of a reviews call: the platform's own when it states one (count and average at
 * least), else computed over the reviews read. `count` of a sample is the rated reviews, so the
 * histogram adds up to it. Every null part comes with a warning.
 */
export function summarizeReviews(platform: Platform, scale: 5 | 10, reviews: Review[], stated: StatedReviewSummary | null): { summary: ReviewSummary; warnings: Warning[] } {
  const warnings: Warning[] = [];
  const missing = (part: string, why: string) => warnings.push({ code: 'field_unavailable', message: `reviewSummary.${part}: ${why}`, platform });
  if (stated) {
    if (stated.histogram === null) missing('histogram', `${platform} states the total and the average but no histogram`);
    if (stated.categories === null) missing('categories', `${platform} states no category scores in its reviews answer`);
    missing('byTripType', `${platform} states no figures per trip type; call without summary to read the reviews' own tripType`);
    return { summary: { ...stated, ratingScale: scale, byTripType: null, basis: 'platform' }, warnings };
  }
  const rated = reviews.filter((r) => r.rating !== null);
  const byTripType = byTripTypeOf(reviews);
  missing('categories', `computed over the reviews read, which carry no category scores (basis sample)`);
  if (byTripType === null) missing('byTripType', 'no review read states a trip type');
  return {
    summary: { count: rated.length, average: mean(rated.map((r) => r.rating!)), ratingScale: scale, histogram: histogramOf(rated, scale), categories: null, byTripType, basis: 'sample' },
    warnings,
  };
}

/** Issue 25 item 4: `q=` matches a review whose title, text, liked or disliked contains it, case-insensitively. */
export function matchesKeyword(review: Review, q: string | null): boolean {
  if (q === null) return true;
  const needle = q.toLocaleLowerCase();
  return [review.title, review.text, review.liked, review.disliked].some((t) => t !== null && t.toLocaleLowerCase().includes(needle));
}
