import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { reviewsLeg as airbnbReviews } from '../../src/adapters/platforms/airbnb/reviews-leg.js';
import { reviewsLeg as bookingReviews } from '../../src/adapters/platforms/booking/reviews.js';
import type { ReviewsRequest } from '../../src/domain/ports/platform.js';

/**
 * A short page is not the end of a list when the platform's own total says more exist: the
 * trial saw Airbnb answer 24 reviews of the 30 asked for, with `reviewsCount` 135.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const airbnbPage = JSON.parse(readFileSync(path.join(ROOT, 'fixtures/replay/airbnb/api/v3/StaysPdpReviewsQuery/StaysPdpReviewsQuery/U3RheUxpc3Rpbmc6OTEwMDAwMDAx.json'), 'utf8'));
const bookingPage = JSON.parse(readFileSync(path.join(ROOT, 'fixtures/replay/booking/dml/graphql/ReviewList.json'), 'utf8'));

const req = (over: Partial<ReviewsRequest> = {}): ReviewsRequest => ({ listingId: '910000001', offset: 0, count: 30, language: null, minRating: null, q: null, summary: false, sort: 'recent', ...over });

/** An Airbnb reviews page with `n` reviews (ids from `start`) and the total it states. */
function airbnbAnswer(start: number, n: number, total: number | null): unknown {
  const container = airbnbPage.data.presentation.stayProductDetailPage.reviews;
  const template = container.reviews[0];
  const reviews = Array.from({ length: n }, (_, i) => ({ ...template, id: String(7000000 + start + i) }));
  const metadata = { ...container.metadata, reviewsCount: total };
  return { ...airbnbPage, data: { presentation: { stayProductDetailPage: { reviews: { ...container, reviews, metadata } } } } };
}

describe('hasMore follows the platform total, not the page length', () => {
  it('airbnb: 24 of 30 asked, 135 in all: more exist; the cursor moves on by what was returned', async () => {
    const offsets: number[] = [];
    const result = await airbnbReviews(req(), {
      pageSize: 50,
      maxPages: 1,
      fetchPage: async (offset) => (offsets.push(offset), airbnbAnswer(offset, 24, 135)),
    });
    expect(result!.reviews).toHaveLength(24);
    expect(result!.hasMore).toBe(true);
    expect(offsets).toEqual([0]);
  });

  it('airbnb: a short page is followed when pages remain; the end is where the total says', async () => {
    const offsets: number[] = [];
    const fetchPage = async (offset: number, limit: number) => (offsets.push(offset), airbnbAnswer(offset, Math.min(limit, 24, 40 - offset), 40));
    const first = await airbnbReviews(req(), { pageSize: 50, maxPages: 3, fetchPage });
    expect(first!.reviews).toHaveLength(30);
    expect(first!.hasMore).toBe(true);
    expect(offsets).toEqual([0, 24]);
    const last = await airbnbReviews(req({ offset: 30 }), { pageSize: 50, maxPages: 3, fetchPage });
    expect(last!.reviews).toHaveLength(10);
    expect(last!.hasMore).toBe(false);
  });

  it('airbnb: without a total, a short page still ends the list', async () => {
    const result = await airbnbReviews(req(), { pageSize: 50, maxPages: 3, fetchPage: async (offset) => airbnbAnswer(offset, 24, null) });
    expect(result!.hasMore).toBe(false);
  });

  it('booking: a filtered scan keeps reading past a short page while the total says more', async () => {
    const cards = bookingPage.data.reviewListFrontend.reviewCard;
    const skips: number[] = [];
    const fetch = async (r: { body?: unknown }) => {
      const skip = (r.body as { variables: { input: { skip: number } } }).variables.input.skip;
      skips.push(skip);
      // 10 cards per page of 25 asked, 30 in all.
      const page = Array.from({ length: skip < 30 ? 10 : 0 }, (_, i) => ({ ...cards[i % cards.length], reviewUrl: `r-${skip + i}` }));
      return { data: { reviewListFrontend: { ...bookingPage.data.reviewListFrontend, reviewCard: page, reviewsCount: 30 } } };
    };
    const hotel = { hotelId: 4400101, countryCode: 'pt', pageName: 'casa' };
    const result = await bookingReviews(fetch as never, hotel as never, req({ listingId: '4400101', count: 100, minRating: 1 }), { pageSize: 25, maxScan: 250 });
    expect(skips).toEqual([0, 10, 20]);
    expect(result.reviews).toHaveLength(30);
    expect(result.warnings.map((w) => w.code)).not.toContain('results_truncated');
  });
});
