import fc from 'fast-check';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseMapsReviews } from '../../src/adapters/platforms/google/parse-reviews.js';
import { parseReviewCard } from '../../src/adapters/platforms/booking/parse-reviews.js';
import { FieldWarnings } from '../../src/adapters/platforms/parse-support.js';
import { statedReviewSummary } from '../../src/adapters/platforms/airbnb/review-summary.js';
import type { Review } from '../../src/domain/model/review.js';
import { ReviewSummary } from '../../src/domain/model/review-summary.js';
import { histogramOf, matchesKeyword, summarizeReviews } from '../../src/domain/reviews/summary.js';

/** Issue 25 item 4: the reviews' verdict, computed or as the platform states it, and the keyword filter. */
const review = (over: Partial<Review>): Review => ({
  platform: 'booking', listingId: '1', reviewId: 'r', rating: 8, ratingScale: 10, title: null, text: null, author: null,
  date: '2026-01-01', tripType: null, language: 'en', locale: 'en', ownerResponse: null, liked: null, disliked: null, ...over,
});

describe('a summary computed over the reviews read', () => {
  it('has a histogram that adds up to count, on any ratings', () => {
    fc.assert(
      fc.property(fc.constantFrom(5 as const, 10 as const), fc.array(fc.option(fc.double({ min: 1, max: 10, noNaN: true }), { nil: null })), (scale, ratings) => {
        const reviews = ratings.map((rating, i) => review({ reviewId: `r${i}`, rating: rating === null ? null : Math.min(scale, rating), ratingScale: scale }));
        const { summary } = summarizeReviews('booking', scale, reviews, null);
        expect(ReviewSummary.parse(summary)).toEqual(summary);
        expect(summary.histogram!.reduce((n, h) => n + h.count, 0)).toBe(summary.count);
        expect(summary.count).toBe(ratings.filter((r) => r !== null).length);
        expect(summary.histogram!.map((h) => h.rating)).toEqual(Array.from({ length: scale }, (_, i) => scale - i));
      }),
    );
  });

  it('gives the mean, the figures per trip type, and says why categories and mentions are null', () => {
    const reviews = [review({ rating: 9.2, tripType: 'couple' }), review({ rating: 7.5, tripType: 'business' }), review({ rating: 8.8, tripType: 'couple' }), review({ rating: null, tripType: 'couple' })];
    const { summary, warnings } = summarizeReviews('booking', 10, reviews, null);
    expect(summary).toMatchObject({ count: 3, average: 8.5, basis: 'sample', categories: null, byTripType: [{ tripType: 'couple', count: 3, average: 9 }, { tripType: 'business', count: 1, average: 7.5 }] });
    expect(histogramOf(reviews, 10).filter((h) => h.count > 0)).toEqual([{ rating: 9, count: 2 }, { rating: 8, count: 1 }]);
    expect(summary.mentions).toBeNull();
    expect(warnings.map((w) => w.message)).toEqual([expect.stringMatching(/^reviewSummary\.categories:/), expect.stringMatching(/^reviewSummary\.mentions:/)]);
  });

  it('takes the platform\'s figures when it states them, and names each part it does not', () => {
    const { summary, warnings } = summarizeReviews('google', 5, [review({ rating: 1 })], { count: 1771, average: 4.2, histogram: null, categories: null, mentions: null });
    expect(summary).toEqual({ count: 1771, average: 4.2, ratingScale: 5, histogram: null, categories: null, mentions: null, byTripType: null, basis: 'platform' });
    expect(warnings.map((w) => w.message.split(':')[0])).toEqual(['reviewSummary.histogram', 'reviewSummary.categories', 'reviewSummary.mentions', 'reviewSummary.byTripType']);
  });

  it('drops a stated histogram that does not add up to the stated total, saying so (never repaired)', () => {
    const histogram = [{ rating: 5, count: 10 }, { rating: 4, count: 5 }];
    const { summary, warnings } = summarizeReviews('google', 5, [], { count: 16, average: 4.6, histogram, categories: null, mentions: null });
    expect(summary.histogram).toBeNull();
    expect(warnings).toContainEqual(expect.objectContaining({ code: 'field_unavailable', message: "reviewSummary.histogram: google's reviews per rating add up to 15, not to its total of 16" }));
    expect(summarizeReviews('google', 5, [], { count: 15, average: 4.6, histogram, categories: null, mentions: null }).summary.histogram).toEqual(histogram);
  });
});

describe('q=', () => {
  it('matches title, text, liked and disliked, case-insensitively, and nothing else', () => {
    expect([
      matchesKeyword(review({ title: 'NOISY street' }), 'noisy'),
      matchesKeyword(review({ text: 'a bit Noisy at night' }), 'noisy'),
      matchesKeyword(review({ liked: 'quiet room' }), 'QUIET'),
      matchesKeyword(review({ disliked: 'noise from the bar' }), 'noise'),
      matchesKeyword(review({ author: 'Noisy Nora', ownerResponse: 'noisy?' }), 'noisy'),
      matchesKeyword(review({}), null),
    ]).toEqual([true, true, true, true, false, true]);
  });
});

const ROOT = path.resolve(import.meta.dirname, '../..');
const SAMPLES = [path.resolve(ROOT, '../shared/upstream-samples'), path.resolve(ROOT, '../../shared/upstream-samples')].find(existsSync);
const load = (file: string) => JSON.parse(readFileSync(path.join(SAMPLES!, file), 'utf8')) as Record<string, unknown>;

describe.skipIf(!SAMPLES)('on the recorded answers', () => {
  it('google Maps states the place\'s total and average (anon-serpapi-google_maps_reviews-goa-hotel.json)', () => {
    const page = parseMapsReviews(load('google/anon-serpapi-google_maps_reviews-goa-hotel.json'), 'ChIJCQgB_SjBvzsRTNqpJU5Xifc');
    expect(page.stated).toEqual({ count: 1771, average: 4.2, histogram: null, categories: null, mentions: null });
    const { summary } = summarizeReviews('google', 5, page.reviews, page.stated);
    expect(summary.basis).toBe('platform');
  });

  it('airbnb\'s listing page states the total, the rating and the category ratings, no histogram (both StaysPdpSections samples)', () => {
    expect(statedReviewSummary(load('airbnb/live-StaysPdpSections-undated-listing19861171.json'))).toEqual({
      count: 135, average: 4.84, histogram: null,
      categories: [['Cleanliness', 4.8], ['Accuracy', 4.9], ['Check-in', 4.9], ['Communication', 4.9], ['Location', 4.9], ['Value', 4.6]].map(([name, score]) => ({ name, score, scale: 5 })),
      mentions: null,
    });
    expect(statedReviewSummary(load('airbnb/anon-graphql-StaysPdpSections-excerpt-apartment-listing38817969.json'))).toEqual({
      count: 490, average: 4.91, histogram: null, categories: [{ name: 'Cleanliness', score: 5, scale: 5 }, { name: 'Accuracy', score: 5, scale: 5 }], mentions: null,
    });
    expect(statedReviewSummary({ data: {} })).toBeNull();
  });

  it('booking\'s traveller types give the figures per trip type (anon-graphql-reviewcards-garden-court-london.json)', () => {
    const cards = load('booking/anon-graphql-reviewcards-garden-court-london.json') as unknown as unknown[];
    const w = new FieldWarnings('booking');
    const reviews = cards.map((c) => parseReviewCard(c, '102764', w)).filter((r): r is Review => r !== null);
    const { summary } = summarizeReviews('booking', 10, reviews, null);
    expect(summary.count).toBe(reviews.filter((r) => r.rating !== null).length);
    expect(summary.histogram!.reduce((n, h) => n + h.count, 0)).toBe(summary.count);
    const types = summary.byTripType!;
    expect(types.reduce((n, t) => n + t.count, 0)).toBe(reviews.filter((r) => r.tripType !== null).length);
    expect(types.length).toBeGreaterThan(1);
    console.log(`booking sample: ${summary.count} reviews, average ${summary.average}, by trip type ${types.map((t) => `${t.tripType} ${t.count}`).join(', ')}`);
  });
});
