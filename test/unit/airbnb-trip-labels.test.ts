import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAirbnbAdapter } from '../../src/adapters/platforms/airbnb/index.js';
import { parseReviewsPage } from '../../src/adapters/platforms/airbnb/parse-reviews.js';
import { UpstreamNotFound, type UpstreamClient } from '../../src/adapters/platforms/http/upstream.js';
import { FieldWarnings } from '../../src/adapters/platforms/parse-support.js';
import { summarizeReviews } from '../../src/domain/reviews/summary.js';

/**
 * Issue 34 item 6: Airbnb's trip label. The fixture has the shape of
 * anon-graphql-StaysPdpReviewsQuery-response-listing38817969.json, whose reviews carry
 * `reviewHighlight` beside `highlightType` (there null and LENGTH_OF_STAY); here three reviews are
 * labelled TYPE_OF_TRIP ("Group trip" twice, "Stayed with kids"), one LENGTH_OF_STAY, one nothing.
 */
const FIXTURE = path.resolve(import.meta.dirname, '../../fixtures/parsers/airbnb-StaysPdpReviewsQuery-trip-labels.json');
const answer = () => JSON.parse(readFileSync(FIXTURE, 'utf8')) as unknown;
const signal = new AbortController().signal;

describe('airbnb trip labels', () => {
  it('a TYPE_OF_TRIP highlight is the review\'s tripType, in Airbnb\'s words; a length-of-stay highlight is not', () => {
    const w = new FieldWarnings('airbnb');
    const page = parseReviewsPage(answer(), '910000011', w)!;
    expect(page.reviews.map((r) => r.tripType)).toEqual(['Group trip', 'Stayed with kids', 'Group trip', null, null]);
    expect(w.list).toEqual([]);
  });

  it('a trip label that is not text is not read, and a warning says so', () => {
    const json = JSON.parse(JSON.stringify(answer()).replace('"reviewHighlight":"Group trip"', '"reviewHighlight":{"label":"Group trip"}')) as unknown;
    const w = new FieldWarnings('airbnb');
    expect(parseReviewsPage(json, '910000011', w)!.reviews[0]!.tripType).toBeNull();
    expect(w.list.map((x) => x.message)).toEqual([expect.stringMatching(/^tripType: an airbnb trip label/)]);
  });

  it('the adapter\'s reviews give the summary (basis sample) its figures per trip type, without the warning that none is stated', async () => {
    // The listing page cannot be had, so the summary is computed over the reviews read.
    const client: UpstreamClient = {
      async json(req) {
        if (req.query?.operationName === 'StaysPdpReviewsQuery') return answer();
        throw new UpstreamNotFound();
      },
      close: async () => {},
    };
    const leg = await createAirbnbAdapter(client).reviews!({ listingId: '910000011', offset: 0, count: 10, language: null, minRating: null, q: null, summary: true, sort: 'recent' }, signal);
    const { summary, warnings } = summarizeReviews('airbnb', 5, leg!.reviews, leg!.stated ?? null);
    expect(summary.basis).toBe('sample');
    expect(summary.byTripType).toEqual([
      { tripType: 'Group trip', count: 2, average: 4 },
      { tripType: 'Stayed with kids', count: 1, average: 4 },
    ]);
    expect(warnings.map((x) => x.message)).not.toContainEqual(expect.stringMatching(/byTripType/));
  });
});
