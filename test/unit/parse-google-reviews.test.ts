import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createGoogleAdapter } from '../../src/adapters/platforms/google/index.js';
import { parseMapsReviews } from '../../src/adapters/platforms/google/parse-reviews.js';
import { mapsReviewsLeg } from '../../src/adapters/platforms/google/reviews-leg.js';
import type { UpstreamClient, UpstreamRequest } from '../../src/adapters/platforms/http/upstream.js';
import { listingIdProblem } from '../../src/domain/listing-ids/operation-ids.js';
import { Review } from '../../src/domain/model/review.js';
import { LegFailure, type ReviewsRequest } from '../../src/domain/ports/platform.js';

/** Google reviews live from the Maps reviews engine: the recorded sample and the project fixture. */
const ROOT = path.resolve(import.meta.dirname, '../..');
const SAMPLE = path.resolve(ROOT, '../shared/upstream-samples/google/anon-serpapi-google_maps_reviews-goa-hotel.json');
const FIXTURE_PLACE = 'ChIJfx1AzulejoTeste0001';
const fixture = JSON.parse(readFileSync(path.join(ROOT, `fixtures/replay/google/search.json/google_maps_reviews/${FIXTURE_PLACE}.json`), 'utf8'));
const signal = new AbortController().signal;
const req = (over: Partial<ReviewsRequest> = {}): ReviewsRequest => ({ listingId: FIXTURE_PLACE, offset: 0, count: 20, language: null, minRating: null, q: null, summary: false, sort: 'recent', ...over });

describe.runIf(existsSync(SAMPLE))('google_maps_reviews, recorded sample (Radisson Goa)', () => {
  const sample = JSON.parse(existsSync(SAMPLE) ? readFileSync(SAMPLE, 'utf8') : '{}');
  const place = 'ChIJCQgB_SjBvzsRTNqpJU5Xifc';

  it('seven reviews, valid, with ids, 1-5 ratings, dates, trip types and owner replies; total and next page', () => {
    const page = parseMapsReviews(sample, place);
    expect(page.reviews).toHaveLength(7);
    for (const r of page.reviews) expect(Review.parse(r)).toEqual(r);
    expect(page.reviews[0]).toMatchObject({ reviewId: 'ChZDSUhNMG9nS0VJQ0FnTURnOWJTRFhBEAE', rating: 5, ratingScale: 5, date: '2025-02-26', tripType: 'Vacation', language: null, locale: null, title: null });
    expect(page.reviews.filter((r) => r.ownerResponse !== null)).toHaveLength(3);
    expect(page).toMatchObject({ total: 1771, placeName: 'Radisson Hotel Goa Candolim', nextPageToken: 'CAESBkVnSUlDQQ==' });
  });

  it('an answer for another place fails the leg', () => {
    expect(() => parseMapsReviews(sample, 'ChIJsomeOtherPlace000')).toThrow(LegFailure);
  });

  it('a short first page with a next-page token has more', async () => {
    const result = await mapsReviewsLeg({ ...req(), listingId: place }, { maxPages: 1, fetchPage: async () => sample });
    expect(result!.reviews).toHaveLength(7);
    expect(result!.hasMore).toBe(true);
  });
});

describe('google reviews leg on the project fixture', () => {
  function client(): UpstreamClient & { seen: UpstreamRequest[] } {
    const seen: UpstreamRequest[] = [];
    return { seen, json: async (r) => (seen.push(r), fixture), close: async () => {} };
  }

  it('declares reviews; asks SerpApi for the place, newest first; the last page has no more', async () => {
    const c = client();
    const adapter = createGoogleAdapter(c, { apiKey: 'k' });
    expect(adapter.operations.has('reviews')).toBe(true);
    const result = await adapter.reviews!(req({ count: 3 }), signal);
    expect(c.seen[0]!.query).toMatchObject({ engine: 'google_maps_reviews', place_id: FIXTURE_PLACE, sort_by: 'newestFirst', hl: 'en' });
    expect(result!.reviews.map((r) => r.rating)).toEqual([5, 4, 3]);
    expect(result!.reviews[2]!.text).toBeNull();
    expect(result!.hasMore).toBe(true);
    const rest = await adapter.reviews!(req({ offset: 3, count: 3 }), signal);
    expect(rest!.reviews).toHaveLength(2);
    expect(rest!.hasMore).toBe(false);
  });

  it('a property token is refused with the reason; language matches none; minRating after retrieval', async () => {
    const adapter = createGoogleAdapter(client(), { apiKey: 'k' });
    expect(listingIdProblem('google', 'reviews', 'ChkIfx1AzulejoTeste0001EAE')).toMatch(/place id/);
    expect(listingIdProblem('google', 'reviews', FIXTURE_PLACE)).toBeNull();
    expect(listingIdProblem('google', 'listing', 'ChkIfx1AzulejoTeste0001EAE')).toBeNull();
    const en = await adapter.reviews!(req({ language: 'en' }), signal);
    expect(en!.reviews).toEqual([]);
    expect(en!.warnings.map((w) => w.code)).toEqual(['filter_unsupported']);
    const good = await adapter.reviews!(req({ minRating: 5 }), signal);
    expect(good!.reviews.map((r) => r.rating)).toEqual([5, 5]);
    expect(good!.warnings.map((w) => w.code)).toContain('filter_applied_after_retrieval');
  });
});
