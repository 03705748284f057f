import type { Warning } from '../model/common.js';
import type { Review, ReviewSummary } from '../model/review.js';
import type { ReviewMention } from '../model/review-summary.js';
import type { Platform } from '../platforms.js';

/** What a platform's reviews answer, or its listing, states about all of a listing's reviews (issue 25 item 4). */
export interface StatedReviewSummary {
  count: number;
  average: number | null;
  /** Reviews per whole rating, when the platform states them; must add up to `count`. */
  histogram: { rating: number; count: number }[] | null;
  categories: { name: string; score: number; scale: number }[] | null;
  /** What reviewers talk about and how, per topic, when the platform counts it. */
  mentions: ReviewMention[] | null;
}

/** Where a platform states its summary: its reviews answer, or its listing (the listing detail). */
export type StatedIn = 'reviews answer' | 'listing';

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
 * The platform's own summary, as stated in `where`; every null part comes with a warning. A
 * histogram that does not add up to the total is dropped (with a warning), never repaired.
 */
export function platformSummary(platform: Platform, scale: 5 | 10, stated: StatedReviewSummary, where: StatedIn): { summary: ReviewSummary; warnings: Warning[] } {
  const warnings: Warning[] = [];
  const missing = (part: string, why: string) => warnings.push({ code: 'field_unavailable', message: `reviewSummary.${part}: ${why}`, platform });
  const summed = stated.histogram?.reduce((n, h) => n + h.count, 0) ?? null;
  const histogram = summed === stated.count ? stated.histogram : null;
  if (summed === null) missing('histogram', `${platform} states the total and the average but no histogram`);
  else if (histogram === null) missing('histogram', `${platform}'s reviews per rating add up to ${summed}, not to its total of ${stated.count}`);
  if (stated.categories === null) missing('categories', `${platform} states no category scores in its ${where}`);
  if (stated.mentions === null) missing('mentions', `${platform} states no topics reviewers mention in its ${where}`);
  const hint = where === 'reviews answer' ? '; call without summary to read the reviews\' own tripType' : '';
  missing('byTripType', `${platform} states no figures per trip type${hint}`);
  return { summary: { ...stated, histogram, ratingScale: scale, byTripType: null, basis: 'platform' }, warnings };
}

/**
 * The summary of a reviews call: the platform's own when it states one (count and average at
 * least), else computed over the reviews read. `count` of a sample is the rated reviews, so the
 * histogram adds up to it. Every null part comes with a warning.
 */
export function summarizeReviews(platform: Platform, scale: 5 | 10, reviews: Review[], stated: StatedReviewSummary | null): { summary: ReviewSummary; warnings: Warning[] } {
  if (stated) return platformSummary(platform, scale, stated, 'reviews answer');
  const warnings: Warning[] = [];
  const missing = (part: string, why: string) => warnings.push({ code: 'field_unavailable', message: `reviewSummary.${part}: ${why}`, platform });
  const rated = reviews.filter((r) => r.rating !== null);
  const byTripType = byTripTypeOf(reviews);
  missing('categories', `computed over the reviews read, which carry no category scores (basis sample)`);
  missing('mentions', `computed over the reviews read, which are not sorted into topics (basis sample)`);
  if (byTripType === null) missing('byTripType', 'no review read states a trip type');
  return {
    summary: { count: rated.length, average: mean(rated.map((r) => r.rating!)), ratingScale: scale, histogram: histogramOf(rated, scale), categories: null, mentions: null, byTripType, basis: 'sample' },
    warnings,
  };
}

/**
 * Issue 34: the platform counts more reviews than its pages serve (it pages through its newest
 * only), so a client reading every page holds fewer than the stated total, and a summary of basis
 * platform (count, average) covers reviews the pages do not: said on every reviews call, with both
 * numbers. Null when paging reads them all.
 */
export function reviewsBeyondPaging(platform: Platform, stated: number | null, readable: number): Warning | null {
  if (stated === null || stated <= readable) return null;
  return {
    code: 'reviews_truncated',
    message: `${platform} counts ${stated} reviews for this listing but serves only its newest ${readable}: paging reads ${readable}, while reviewSummary with basis platform (and the listing's reviewCount) counts and averages all ${stated}.`,
    platform,
  };
}

/** Issue 25 item 4: `q=` matches a review whose title, text, liked or disliked contains it, case-insensitively. */
export function matchesKeyword(review: Review, q: string | null): boolean {
  if (q === null) return true;
  const needle = q.toLocaleLowerCase();
  return [review.title, review.text, review.liked, review.disliked].some((t) => t !== null && t.toLocaleLowerCase().includes(needle));
}

/**
 * The listing detail's reviewSummary (issue 25): the platform's own, from what its listing page
 * states, or null with a warning when it states no total and rating there.
 */
export function listingReviewSummary(platform: Platform, scale: 5 | 10, stated: StatedReviewSummary | null): { summary: ReviewSummary | null; warnings: Warning[] } {
  if (stated === null) return { summary: null, warnings: [{ code: 'field_unavailable', message: `reviewSummary: ${platform}'s listing states no review total and rating`, platform }] };
  return platformSummary(platform, scale, stated, 'listing');
}
