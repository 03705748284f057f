import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseReviewsPage as parseAirbnbReviews } from '../../src/adapters/platforms/airbnb/parse-reviews.js';
import { stayPriceOf } from '../../src/adapters/platforms/booking/parse-price.js';
import { parseReviewCard } from '../../src/adapters/platforms/booking/parse-reviews.js';
import { parseMapsReviews } from '../../src/adapters/platforms/google/parse-reviews.js';
import { FieldWarnings, parseMoney } from '../../src/adapters/platforms/parse-support.js';

/** Issue 13 item 4: a currency is never guessed, and a missing text is null, never "". */
const ROOT = path.resolve(import.meta.dirname, '../..');
const load = (p: string): any => JSON.parse(readFileSync(path.join(ROOT, p), 'utf8'));

describe('never guess a currency', () => {
  it('a bare "$" or "¥" names no currency; a code or a one-currency symbol does', () => {
    expect(parseMoney('$1,120')).toEqual({ amount: 1120, currency: null });
    expect(parseMoney('¥12,000')?.currency).toBeNull();
    expect(parseMoney('US$1,120')?.currency).toBe('USD');
    expect(parseMoney('USD 1,120')?.currency).toBe('USD');
    expect(parseMoney('€ 29')?.currency).toBe('EUR');
    expect(parseMoney('AUD 259')?.currency).toBe('AUD');
  });

  it('booking: an amount without a currency code is no price, with a warning; a printed code is enough', () => {
    const item = (amountPerStay: unknown) => ({ priceDisplayInfoIrene: { displayPrice: { amountPerStay }, excludedCharges: { excludeChargesList: [] } } });
    const w = new FieldWarnings('booking');
    expect(stayPriceOf(item({ amount: '$120' }), 1, 'USD', w)).toBeNull();
    expect(w.list).toContainEqual({ code: 'field_unavailable', message: 'price: the stay price names no currency', platform: 'booking' });
    expect(stayPriceOf(item({ amountUnformatted: 120 }), 1, 'USD', new FieldWarnings('booking'))).toBeNull();
    expect(stayPriceOf(item({ amount: 'USD 120' }), 1, 'USD', new FieldWarnings('booking'))?.totalPrice).toBe(120);
  });
});

describe('a review without text has text null', () => {
  it('airbnb, booking and google', () => {
    const airbnb = load('fixtures/replay/airbnb/api/v3/StaysPdpReviewsQuery/StaysPdpReviewsQuery/U3RheUxpc3Rpbmc6OTEwMDAwMDAx.json');
    const container = airbnb.data.presentation.stayProductDetailPage.reviews;
    const bare = { ...container.reviews[0], comments: null };
    const page = parseAirbnbReviews({ data: { presentation: { stayProductDetailPage: { reviews: { ...container, reviews: [bare] } } } } }, '910000001', new FieldWarnings('airbnb'));
    expect(page!.reviews[0]!.text).toBeNull();

    const card = load('fixtures/replay/booking/dml/graphql/ReviewList.json').data.reviewListFrontend.reviewCard[0];
    const scoreOnly = { ...card, textDetails: { ...card.textDetails, positiveText: null, negativeText: '' } };
    expect(parseReviewCard(scoreOnly, '1', new FieldWarnings('booking'))!.text).toBeNull();

    const maps = { search_parameters: { engine: 'google_maps_reviews', place_id: 'ChIJx' }, reviews: [{ review_id: 'r1', rating: 4, iso_date: '2025-02-26T10:55:44Z', user: { name: 'A' } }] };
    expect(parseMapsReviews(maps, 'ChIJx').reviews[0]!.text).toBeNull();
  });
});
