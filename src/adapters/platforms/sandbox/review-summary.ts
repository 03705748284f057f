import type { StatedReviewSummary } from '../../../domain/reviews/summary.js';
import type { Property } from '../../../domain/model/property.js';
import type { SandboxPlatform } from './ids.js';
import type { ReviewMention } from '../../../domain/model/review-summary.js';
import { rng, type Rng } from './random.js';

/**
 * Share of reviews per star, 5 down to 1, whose mean is `average` of 5 (as a platform's stated
 * average is its histogram's mean): the 4-to-1 stars keep fixed proportions, whose mean is 3.27,
 * and the 5-star share t makes the whole 3.27 + 1.73 t. Averages outside 3.3-4.9 get the nearest.
 */
function shares(average: number): number[] {
  const top = Math.max(0.02, Math.min(0.95, (average - 3.27) / 1.73));
  const rest = 1 - top;
  return [top, rest * 0.55, rest * 0.25, rest * 0.12, rest * 0.08];
}

/** Splits `count` by `weights` into whole numbers that add up to it (largest remainders first). */
function apportion(count: number, weights: number[]): number[] {
  const exact = weights.map((w) => w * count);
  const whole = exact.map(Math.floor);
  let left = count - whole.reduce((a, b) => a + b, 0);
  const order = exact.map((e, i) => ({ i, r: e - Math.floor(e) })).sort((a, b) => b.r - a.r || a.i - b.i);
  for (const { i } of order) if (left-- > 0) whole[i]! += 1;
  return whole;
}

const AIRBNB_CATEGORIES = ['Cleanliness', 'Accuracy', 'Check-in', 'Communication', 'Location', 'Value'];
const GOOGLE_TOPICS = ['Service', 'Property', 'Location', 'Cleanliness', 'Breakfast', 'Bathroom and toiletries', 'Sleep', 'Public transit'];
/** Google breaks reviews down by topic only for a listing with this many reviews or more (the sandbox's rule). */
const MENTIONS_FROM = 50;

/** Per topic: some share of the reviews mention it, split into positive, negative and neutral that add up. */
function sandboxMentions(r: Rng, count: number, average: number): ReviewMention[] {
  const praise = Math.max(0.2, Math.min(0.85, (average - 2) / 3));
  return GOOGLE_TOPICS.map((topic) => {
    const mentioned = Math.round(count * r.float(0.03, 0.3, 3));
    const positive = Math.round(mentioned * Math.min(1, Math.max(0, praise + r.float(-0.2, 0.1, 2))));
    const negative = Math.round((mentioned - positive) * r.float(0.5, 0.9, 2));
    return { topic, mentioned, positive, negative, neutral: mentioned - positive - negative };
  }).sort((a, b) => b.mentioned - a.mentioned);
}

/**
 * Issue 25 item 4: what a sandbox platform's reviews answer states about all of a listing's
 * reviews, as the live platform would. Google states a star histogram, a location score and,
 * from 50 reviews, the topics reviewers mention (its property details' `ratings`,
 * `location_rating` and `reviews_breakdown`); Airbnb states its category ratings and total but no
 * histogram; Booking and Vrbo state nothing, so their summary is computed over the reviews read.
 * A listing without reviews or a rating states nothing.
 */
export function sandboxStatedSummary(platform: SandboxPlatform, property: Property): StatedReviewSummary | undefined {
  const { reviewCount: count, guestRating: average } = property;
  if (count === null || count === 0 || average === null) return undefined;
  const r = rng(`review-summary:${property.id}`);
  const score = (scale: number) => Math.min(scale, Number((average + r.float(-0.3, 0.2, 1)).toFixed(1)));
  if (platform === 'google') {
    const histogram = apportion(count, shares(average)).map((n, i) => ({ rating: 5 - i, count: n }));
    const categories = [{ name: 'Location', score: score(5), scale: 5 }];
    return { count, average, histogram, categories, mentions: count >= MENTIONS_FROM ? sandboxMentions(r, count, average) : null };
  }
  if (platform === 'airbnb') return { count, average, histogram: null, categories: AIRBNB_CATEGORIES.map((name) => ({ name, score: score(5), scale: 5 })), mentions: null };
  return undefined;
}

/**
 * What a sandbox listing page states: the reviews answer's summary where there is one; Booking's
 * page its score and total only (as its live JSON-LD `aggregateRating`); Vrbo's none.
 */
export function sandboxListingSummary(platform: SandboxPlatform, property: Property): StatedReviewSummary | null {
  const stated = sandboxStatedSummary(platform, property);
  if (stated) return stated;
  const { reviewCount: count, guestRating: average } = property;
  if (platform === 'booking' && count !== null && count > 0 && average !== null) return { count, average, histogram: null, categories: null, mentions: null };
  return null;
}
