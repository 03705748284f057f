import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../src/domain/dates.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { expectError } from '../support/common-rules.js';

/** Issue 13 item 6: the validation gaps a trial found, each a 400 naming its parameter or a consistent rule. */
const start = addDays(new Date().toISOString().slice(0, 10), 30);
let app: TestApp;
let key: string;
beforeAll(async () => {
  app = await startTestApp();
  key = (await app.newKey('sandbox')).key;
});
afterAll(() => app.close());

describe('input rules', () => {
  it('coordinates off the globe are a 400 naming location, not an empty search', async () => {
    expect((await expectError(await app.get('/v1/search?location=91,0', key), 400, 'invalid_request')).param).toBe('location');
    expect((await expectError(await app.get('/v1/search?location=0,-180.5', key), 400, 'invalid_request')).param).toBe('location');
    const compare = `/v1/price-compare?name=Hotel%20Aurora&location=-90.01,10&checkIn=${start}&checkOut=${addDays(start, 2)}`;
    expect((await expectError(await app.get(compare, key), 400, 'invalid_request')).param).toBe('location');
    expect((await app.get('/v1/search?location=38.72,-9.14', key)).status).toBe(200);
    expect((await app.get('/v1/search?location=90,180', key)).status).toBe(200);
  });

  it('a listing id that is a URL is resolved by the listing-URL rules or refused, never used as an id', async () => {
    const nested = encodeURIComponent('https://www.airbnb.com/rooms/1');
    const res = await app.get(`/v1/listing/airbnb/${nested}`, key);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: { platformListingId: string } }).data.platformListingId).toBe('1');
    const other = encodeURIComponent('https://example.com/rooms/1');
    expect((await expectError(await app.get(`/v1/listing/airbnb/${other}`, key), 400, 'invalid_listing_url')).param).toBe('id');
    const reviews = await app.get(`/v1/reviews?platform=airbnb&listingId=${other}`, key);
    expect((await expectError(reviews, 400, 'invalid_listing_url')).param).toBe('listingId');
    const calendar = await app.get(`/v1/availability?platform=airbnb&listingIds=1,${other}&startDate=${start}&endDate=${addDays(start, 3)}`, key);
    expect((await expectError(calendar, 400, 'invalid_listing_url')).param).toBe('listingIds');
  });

  it('review language is case-insensitive: EN and en give the same reviews; a non-code is refused', async () => {
    const upper = (await (await app.get('/v1/reviews?platform=booking&listingId=4000101&language=EN&limit=50', key)).json()) as { data: { language: string }[] };
    const lower = (await (await app.get('/v1/reviews?platform=booking&listingId=4000101&language=en&limit=50', key)).json()) as { data: { language: string }[] };
    expect(upper.data.length).toBeGreaterThan(0);
    expect(upper.data).toEqual(lower.data);
    expect(upper.data.every((r) => r.language === 'en')).toBe(true);
    expect((await expectError(await app.get('/v1/reviews?platform=booking&listingId=4000101&language=eng', key), 400, 'invalid_request')).param).toBe('language');
  });

  it('google reviews take a Maps place id in the sandbox as live; a Hotels property token is a 400 naming listingId', async () => {
    expect((await app.get('/v1/reviews?platform=google&listingId=ChIJCQgB_SjBvzsRTNqpJU5Xifc', key)).status).toBe(200);
    const err = await expectError(await app.get('/v1/reviews?platform=google&listingId=ChkIqafB4ez8rtLKARoML2cvMXE2cWJiYjhiEAE', key), 400, 'invalid_listing_id');
    expect(err.param).toBe('listingId');
    expect(err.message).toMatch(/place id/);
  });
});
