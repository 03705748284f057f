import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseHotelPage } from '../../src/adapters/platforms/booking/parse-hotel-page.js';
import { parseListing } from '../../src/adapters/platforms/google/parse-details.js';
import { createSandboxAdapters } from '../../src/adapters/platforms/sandbox/adapter.js';
import type { Warning } from '../../src/domain/model/common.js';
import { Property } from '../../src/domain/model/property.js';
import { ReviewSummary } from '../../src/domain/model/review-summary.js';
import type { Platform } from '../../src/domain/platforms.js';
import type { SearchQuery } from '../../src/domain/ports/platform.js';

/** Issue 25: the reviews' verdict on the listing detail, from each platform's listing answer. */
const ROOT = path.resolve(import.meta.dirname, '../..');
const SAMPLES = path.resolve(ROOT, '../shared/upstream-samples');
const DETAILS = 'google/serpapi-google_hotels-property-details-london.json';
const MILLENNIUM = 'ChkIqafB4ez8rtLKARoML2cvMXE2cWJiYjhiEAE';
const load = (file: string) => JSON.parse(readFileSync(path.join(SAMPLES, file), 'utf8')) as Record<string, unknown>;
const parts = (warnings: Warning[]) => warnings.filter((w) => w.message.startsWith('reviewSummary')).map((w) => w.message.split(':')[0]);

describe.skipIf(!existsSync(SAMPLES))('google property details (London sample)', () => {
  it('count, average, star histogram, location score and the topics reviewers mention, exactly as stated', () => {
    const { value, warnings } = parseListing(load(DETAILS), MILLENNIUM)!;
    expect(Property.parse(value)).toEqual(value);
    const s = value.reviewSummary!;
    expect({ ...s, mentions: s.mentions!.slice(0, 6) }).toEqual({
      count: 5647,
      average: 3.8,
      ratingScale: 5,
      histogram: [{ rating: 5, count: 2354 }, { rating: 4, count: 1542 }, { rating: 3, count: 747 }, { rating: 2, count: 389 }, { rating: 1, count: 615 }],
      categories: [{ name: 'Location', score: 4.6, scale: 5 }],
      mentions: [
        { topic: 'Service', mentioned: 1327, positive: 823, negative: 436, neutral: 68 },
        { topic: 'Property', mentioned: 1325, positive: 752, negative: 461, neutral: 112 },
        { topic: 'Location', mentioned: 988, positive: 792, negative: 95, neutral: 101 },
        { topic: 'Cleanliness', mentioned: 523, positive: 261, negative: 246, neutral: 16 },
        { topic: 'Breakfast', mentioned: 395, positive: 255, negative: 97, neutral: 43 },
        { topic: 'Bathroom and toiletries', mentioned: 385, positive: 84, negative: 263, neutral: 38 },
      ],
      byTripType: null,
      basis: 'platform',
    });
    expect(s.mentions).toHaveLength(28);
    expect(s.mentions!.at(-1)).toEqual({ topic: 'Spa', mentioned: 6, positive: 1, negative: 5, neutral: 0 });
    // Only what google does not state is named: figures per trip type.
    expect(parts(warnings)).toEqual(['reviewSummary.byTripType']);
  });

  it('a histogram that does not add up to the total is null with a warning, never repaired', () => {
    const json = load(DETAILS);
    const { value, warnings } = parseListing({ ...json, reviews: 5648 }, MILLENNIUM)!;
    expect(value.reviewSummary).toMatchObject({ count: 5648, histogram: null });
    expect(warnings).toContainEqual(expect.objectContaining({ code: 'field_unavailable', message: "reviewSummary.histogram: google's reviews per rating add up to 5647, not to its total of 5648" }));
  });

  it('no breakdown or location score: null parts with a warning each; no total: reviewSummary null', () => {
    const { reviews_breakdown: _b, location_rating: _l, ...json } = load(DETAILS);
    const partial = parseListing(json, MILLENNIUM)!;
    expect(partial.value.reviewSummary).toMatchObject({ count: 5647, categories: null, mentions: null });
    expect(parts(partial.warnings)).toEqual(['reviewSummary.categories', 'reviewSummary.mentions', 'reviewSummary.byTripType']);
    const { reviews: _r, ...unrated } = json;
    const none = parseListing(unrated, MILLENNIUM)!;
    expect(none.value.reviewSummary).toBeNull();
    expect(parts(none.warnings)).toEqual(['reviewSummary']);
  });

  it('a topic whose counts do not add up is left out with a warning', () => {
    const json = load(DETAILS);
    const [first, ...rest] = json.reviews_breakdown as Record<string, unknown>[];
    const { value, warnings } = parseListing({ ...json, reviews_breakdown: [{ ...first, neutral: 69 }, ...rest] }, MILLENNIUM)!;
    expect(value.reviewSummary!.mentions!.map((m) => m.topic)).not.toContain('Service');
    expect(value.reviewSummary!.mentions).toHaveLength(27);
    expect(warnings).toContainEqual(expect.objectContaining({ code: 'item_skipped', message: expect.stringContaining('(Service)') }));
  });
});

describe.skipIf(!existsSync(SAMPLES))('booking hotel page (Crown Metropol sample)', () => {
  it('aggregateRating gives count and average on 10; no histogram, categories or topics', () => {
    const block = readFileSync(path.join(SAMPLES, 'booking/hotel-page-jsonld-crown-metropol-melbourne-aud.json'), 'utf8');
    const html = `<html><head><script type="application/ld+json">${block}</script></head></html>`;
    const { value, warnings } = parseHotelPage(html, { listingId: 'au/crown-metropol', countryCode: 'au', pageName: 'crown-metropol' });
    expect(value.reviewSummary).toEqual({ count: 5228, average: 8.9, ratingScale: 10, histogram: null, categories: null, mentions: null, byTripType: null, basis: 'platform' });
    expect(parts(warnings)).toEqual(['reviewSummary.histogram', 'reviewSummary.categories', 'reviewSummary.mentions', 'reviewSummary.byTripType']);
  });
});

describe('sandbox listings', () => {
  const set = createSandboxAdapters();
  const signal = new AbortController().signal;
  const query = (platform: Platform): SearchQuery => ({
    location: 'Lisbon', area: { centre: null, radiusKm: null, box: null }, checkIn: null, checkOut: null, occupancy: { adults: 2, children: 0, childAges: [] }, rooms: 1,
    propertyTypes: [], amenities: [], minBedrooms: null, priceMin: null, priceMax: null, minGuestRating: null, refundable: null, board: null,
    platforms: [platform], sort: 'recommended', currency: 'USD',
  });
  const listings = async (platform: Platform) => {
    const ids = (await set.get(platform)!.search!({ query: query(platform), offset: 0, count: 200 }, signal)).items.map((p) => p.platformListingId);
    return Promise.all(ids.map(async (listingId) => (await set.get(platform)!.listing!({ listingId, currency: 'USD', stay: null }, signal))!));
  };

  it('every case, deterministically: full with topics, null parts, and null altogether, each absence with a warning', async () => {
    const seen = new Set<string>();
    for (const platform of ['google', 'airbnb', 'booking', 'vrbo'] as const) {
      const all = await listings(platform);
      expect(await listings(platform)).toEqual(all);
      for (const { value, warnings } of all) {
        const s = value.reviewSummary!;
        if (value.reviewCount === 0 || platform === 'vrbo') {
          expect(s).toBeNull();
          expect(parts(warnings)).toEqual(['reviewSummary']);
          seen.add(`${platform} null`);
          continue;
        }
        expect(ReviewSummary.parse(s)).toEqual(s);
        expect([s.count, s.average, s.basis]).toEqual([value.reviewCount, value.guestRating, 'platform']);
        const nulls = (['histogram', 'categories', 'mentions', 'byTripType'] as const).filter((k) => s[k] === null);
        expect(parts(warnings)).toEqual(nulls.map((k) => `reviewSummary.${k}`));
        if (s.histogram) expect(s.histogram.reduce((n, h) => n + h.count, 0)).toBe(s.count);
        // As a platform's average is its histogram's mean (the London sample: 3.82 for a stated 3.8).
        if (s.histogram && s.average !== null && s.average >= 3.3 && s.average <= 4.9 && s.count >= 20) {
          expect(Math.abs(s.histogram.reduce((n, h) => n + h.rating * h.count, 0) / s.count - s.average)).toBeLessThanOrEqual(0.1);
        }
        for (const m of s.mentions ?? []) expect(m.positive + m.negative + m.neutral).toBe(m.mentioned);
        seen.add(`${platform} ${nulls.join(',')}`);
      }
    }
    expect([...seen].sort()).toEqual([
      'airbnb histogram,mentions,byTripType',
      'airbnb null',
      'booking histogram,categories,mentions,byTripType',
      'booking null',
      'google byTripType',
      'google mentions,byTripType',
      'google null',
      'vrbo null',
    ]);
  });
});
