import type { StatedReviewSummary } from '../../../domain/reviews/summary.js';
import type { Property } from '../../../domain/model/property.js';
import type { SandboxPlatform } from './ids.js';
import { rng } from './random.js';

/** Share of reviews per star, 5 down to 1, for a listing rated about `average` of 5. */
function shares(average: number): number[] {
  const top = Math.max(0.05, Math.min(0.9, (average - 3) / 2));
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
const GOOGLE_CATEGORIES = ['Service', 'Property', 'Location', 'Cleanliness', 'Breakfast', 'Sleep'];

/**
 * Issue 25 item 4: what a sandbox platform's reviews answer states about all of a listing's
 * reviews, as the live platform would. Google states a star histogram and category scores (its
 * property details' `ratings` and `reviews_breakdown`); Airbnb states its category ratings and
 * total but no histogram; Booking and Vrbo state nothing, so their summary is computed over the
 * reviews read. A listing without reviews or a rating states nothing.
 */
export function sandboxStatedSummary(platform: SandboxPlatform, property: Property): StatedReviewSummary | undefined {
  const { reviewCount: count, guestRating: average } = property;
  if (count === null || count === 0 || average === null) return undefined;
  const r = rng(`review-summary:${property.id}`);
  const score = (scale: number) => Math.min(scale, Number((average + r.float(-0.3, 0.2, 1)).toFixed(1)));
  if (platform === 'google') {
    const histogram = apportion(count, shares(average)).map((n, i) => ({ rating: 5 - i, count: n }));
    return { count, average, histogram, categories: GOOGLE_CATEGORIES.map((name) => ({ name, score: score(5), scale: 5 })) };
  }
  if (platform === 'airbnb') return { count, average, histogram: null, categories: AIRBNB_CATEGORIES.map((name) => ({ name, score: score(5), scale: 5 })) };
  return undefined;
}
