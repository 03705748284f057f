import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { addDays } from '../../src/domain/dates.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { expectCommonRules, expectError } from '../support/common-rules.js';
import { SANDBOX_HOTEL, SANDBOX_HOTEL_QUERY } from '../support/sandbox-hotel.js';

const today = new Date().toISOString().slice(0, 10);
const start = addDays(today, 30);
const end = addDays(today, 44);

let app: TestApp;
let key: string;
beforeAll(async () => {
  app = await startTestApp();
});
beforeEach(async () => {
  key = (await app.newKey('sandbox')).key;
});
afterAll(() => app.close());

async function ok<T = any>(path: string): Promise<T> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const res = await app.get(path, key);
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as T;
}

describe('GET /v1/availability', () => {
  const path = `/v1/availability?platform=airbnb&listingId=40000012&startDate=${start}&endDate=${end}`;
  it('obeys the cross-cutting rules', () => expectCommonRules(app, path));

  it('returns one calendar day per date of the window', async () => {
    const body = await ok(path);
    expect(body.data).toHaveLength(1);
    expect(body.data[0]).toMatchObject({ platform: 'airbnb', listingId: '40000012' });
    expect(body.data[0].dates).toHaveLength(15);
    expect(body.data[0].dates[0].date).toBe(start);
    expect(body.meta).toMatchObject({ platforms: ['airbnb'], pagination: null, creditsCharged: 0, partial: false });
    const only = await ok(`${path}&onlyAvailable=true`);
    expect(only.data[0].dates.every((d: { bookable: boolean }) => d.bookable)).toBe(true);
    const all = await ok(`${path}&onlyAvailable=false`);
    expect(all.data[0].dates).toHaveLength(15);
  });

  it('takes a batch and a listing URL', async () => {
    const batch = await ok(`/v1/availability?platform=vrbo&listingIds=6000001,6000002,sandbox-missing&startDate=${start}&endDate=${end}`);
    expect(batch.data.map((d: { listingId: string }) => d.listingId)).toEqual(['6000001', '6000002']);
    expect(batch.meta.warnings).toContainEqual(expect.objectContaining({ code: 'listing_not_found' }));
    expect(batch.meta.platformResults).toEqual([{ platform: 'vrbo', status: 'ok', count: 2, cached: false, creditsCharged: 0 }]);
    const byUrl = await ok(`/v1/availability?platform=vrbo&url=${encodeURIComponent('https://www.vrbo.com/6000001ha')}&startDate=${start}&endDate=${end}`);
    expect(byUrl.data[0].listingId).toBe('6000001ha');
  });

  it.each([
    ['platform=airbnb&startDate=S&endDate=E', 'missing_parameter', 'listingId'],
    ['platform=airbnb&listingId=1&listingIds=2&startDate=S&endDate=E', 'mutually_exclusive_params', 'listingIds'],
    ['platform=airbnb&url=https://www.airbnb.com.evil.io/rooms/1&startDate=S&endDate=E', 'invalid_listing_url', 'url'],
    ['platform=google&listingId=1&startDate=S&endDate=E', 'invalid_request', 'platform'],
    ['platform=airbnb&listingId=1&startDate=E&endDate=S', 'invalid_request', 'endDate'],
    ['platform=airbnb&listingId=1&startDate=S', 'missing_parameter', 'endDate'],
    [`platform=airbnb&listingId=1&startDate=S&endDate=${addDays(start, 366)}`, 'invalid_request', 'endDate'],
    ['platform=airbnb&listingId=1&startDate=2020-01-01&endDate=2020-01-05', 'invalid_request', 'startDate'],
    ['platform=airbnb&listingId=1&startDate=S&endDate=E&onlyAvailable=maybe', 'invalid_request', 'onlyAvailable'],
  ])('rejects %s', async (query, code, param) => {
    const res = await app.get(`/v1/availability?${query.replace(/=S/g, `=${start}`).replace(/=E/g, `=${end}`)}`, key);
    expect((await expectError(res, 400, code)).param).toBe(param);
  });

  it('answers 404 and 503 for the sandbox triggers', async () => {
    await expectError(await app.get(`/v1/availability?platform=airbnb&listingId=sandbox-missing&startDate=${start}&endDate=${end}`, key), 404, 'listing_not_found');
    await expectError(await app.get(`/v1/availability?platform=airbnb&listingId=sandbox:unavailable&startDate=${start}&endDate=${end}`, key), 503, 'upstream_unavailable');
  });
});

describe('GET /v1/listing/{platform}/{id}', () => {
  it('obeys the cross-cutting rules', () => expectCommonRules(app, '/v1/listing/airbnb/40000012'));

  it('returns the listing search found, and embeds a price for dates', async () => {
    const search = await ok('/v1/search?location=Lisbon&platforms=booking&limit=1');
    const found = search.data[0];
    const detail = await ok(`/v1/listing/booking/${found.platformListingId}`);
    // Only a search item has a distance; only a listing says what is nearby and the reviews' verdict (issue 25).
    const { distanceKm: _distance, ...listed } = found;
    const { nearby, reviewSummary, ...rest } = detail.data;
    expect(rest).toEqual(listed);
    expect(nearby).toBeNull();
    expect(reviewSummary === null ? null : reviewSummary.count).toBe(found.reviewCount === 0 ? null : found.reviewCount);
    expect(detail.meta).toMatchObject({ platforms: ['booking'], pagination: null });
    const priced = await ok(`/v1/listing/booking/${found.platformListingId}?checkIn=${start}&checkOut=${addDays(start, 3)}&currency=GBP`);
    expect(priced.data.price).toMatchObject({ currency: 'GBP', nights: 3 });
  });

  it('URL-decodes path parameters and keeps ids verbatim', async () => {
    const body = await ok('/v1/listing/booking/gb%2Fgarden-court');
    expect(body.data.platformListingId).toBe('gb/garden-court');
    const cased = await ok('/v1/listing/google/ChkIZzAuMQ');
    expect(cased.data.platformListingId).toBe('ChkIZzAuMQ');
    await expectError(await app.get('/v1/listing/airbnb/%E0%A4%A', key), 400, 'invalid_request');
  });

  it('answers 404 listing_not_found, and 400 for platforms without listings', async () => {
    await expectError(await app.get('/v1/listing/airbnb/sandbox-missing', key), 404, 'listing_not_found');
    expect((await expectError(await app.get('/v1/listing/tripadvisor/123', key), 400, 'invalid_request')).subCode).toBe('platform_not_supported');
    await expectError(await app.get('/v1/listing/nowhere/123', key), 400, 'invalid_request');
  });
});

describe('GET /v1/price', () => {
  const path = `/v1/price?platform=airbnb&listingId=40000012&checkIn=${start}&checkOut=${addDays(start, 5)}&adults=2&children=1&childAges=7`;
  it('obeys the cross-cutting rules', () => expectCommonRules(app, path));

  it('returns an all-in price whose parts add up, with the occupancy echoed', async () => {
    const { data } = await ok(path);
    expect(data).toMatchObject({ platform: 'airbnb', listingId: '40000012', nights: 5, currency: 'USD', occupancy: { adults: 2, children: 1, childAges: [7] } });
    // Every fee line is part of the total (issue 25); the summaries are sums of lines.
    const fees = (data.fees as { items: { amount: number }[] }).items.reduce((s, i) => s + i.amount, 0);
    const subtotal = Math.round((data.totalPrice - fees) * 100) / 100;
    // nightlyPrice is the subtotal per night, rounded to the cent
    expect(Math.abs(subtotal - data.nightlyPrice * data.nights)).toBeLessThanOrEqual(0.005 * data.nights + 1e-9);
    expect(data.fees).toEqual({ cleaning: expect.any(Number), service: expect.any(Number), taxes: expect.any(Number), items: expect.any(Array) });
  });

  it('accepts a listing URL as listingId and refuses foreign hosts', async () => {
    const url = encodeURIComponent('https://www.airbnb.co.uk/rooms/40000012?adults=2');
    const { data } = await ok(`/v1/price?platform=airbnb&listingId=${url}&checkIn=${start}&checkOut=${addDays(start, 5)}`);
    expect(data.listingId).toBe('40000012');
    const bad = encodeURIComponent('http://169.254.169.254/rooms/1');
    await expectError(await app.get(`/v1/price?platform=airbnb&listingId=${bad}&checkIn=${start}&checkOut=${addDays(start, 5)}`, key), 400, 'invalid_listing_url');
  });

  it('requires both dates', async () => {
    expect((await expectError(await app.get('/v1/price?platform=airbnb&listingId=1', key), 400, 'missing_parameter')).param).toBe('checkIn');
  });
});

describe('GET /v1/price-compare', () => {
  const path = `/v1/price-compare?name=${SANDBOX_HOTEL_QUERY}&location=Lisbon&checkIn=${start}&checkOut=${addDays(start, 2)}`;
  it('obeys the cross-cutting rules', () => expectCommonRules(app, path));

  it('computes min and median from the offers', async () => {
    const { data, meta } = await ok(path);
    const totals = data.offers.map((o: { totalPrice: number }) => o.totalPrice);
    expect(data.min).toBe(Math.min(...totals));
    const sorted = [...totals].sort((a, b) => a - b);
    const mid = Math.floor(sorted.length / 2);
    const median = sorted.length % 2 ? sorted[mid] : Math.round(((sorted[mid - 1] + sorted[mid]) / 2) * 100) / 100;
    expect(data.median).toBe(median);
    expect(meta.platforms).toEqual(['google']);
    expect(data.property).toBe(SANDBOX_HOTEL);
  });

  it('applies the identification rules', async () => {
    const base = `checkIn=${start}&checkOut=${addDays(start, 2)}`;
    await expectError(await app.get(`/v1/price-compare?${base}`, key), 400, 'missing_parameter');
    await expectError(await app.get(`/v1/price-compare?${base}&location=Lisbon`, key), 400, 'missing_parameter');
    await expectError(await app.get(`/v1/price-compare?${base}&googleHotelId=ChkIabcdefgh&name=X`, key), 400, 'mutually_exclusive_params');
    await expectError(await app.get(`/v1/price-compare?${base}&googleHotelId=sandbox-missing`, key), 404, 'listing_not_found');
    const partial = await ok(`/v1/price-compare?${base}&name=sandbox:partial`);
    expect(partial.meta.partial).toBe(true);
  });
});

describe('GET /v1/reviews', () => {
  const path = '/v1/reviews?platform=booking&listingId=2000033&limit=10';
  it('obeys the cross-cutting rules', () => expectCommonRules(app, path));

  it('paginates without repeats and filters', async () => {
    const first = await ok(path);
    expect(first.data).toHaveLength(10);
    expect(first.data[0]).toMatchObject({ platform: 'booking', listingId: '2000033', ratingScale: 10 });
    const second = await ok(`${path}&cursor=${first.meta.pagination.nextCursor}`);
    const ids = [...first.data, ...second.data].map((r: { reviewId: string }) => r.reviewId);
    expect(new Set(ids).size).toBe(ids.length);
    const fr = await ok('/v1/reviews?platform=airbnb&listingId=40000012&language=fr&limit=100');
    expect(fr.data.every((r: { language: string; title: null }) => r.language === 'fr' && r.title === null)).toBe(true);
    const asc = await ok('/v1/reviews?platform=vrbo&listingId=6000006&sort=rating_asc&minRating=3');
    const ratings = asc.data.map((r: { rating: number }) => r.rating);
    expect(ratings).toEqual([...ratings].sort((a, b) => a - b));
    expect(Math.min(...ratings)).toBeGreaterThanOrEqual(3);
  });

  it('applies the identification and limit rules', async () => {
    await expectError(await app.get('/v1/reviews?platform=airbnb', key), 400, 'missing_parameter');
    await expectError(await app.get('/v1/reviews?platform=airbnb&listingId=1&url=https://www.airbnb.com/rooms/1', key), 400, 'mutually_exclusive_params');
    await expectError(await app.get('/v1/reviews?platform=airbnb&url=file:///etc/passwd', key), 400, 'invalid_listing_url');
    await expectError(await app.get('/v1/reviews?platform=airbnb&listingId=1&limit=500', key), 400, 'limit_out_of_range');
    await expectError(await app.get('/v1/reviews?platform=airbnb&listingId=1&cursor=eyJ2IjoxfQ', key), 400, 'invalid_cursor');
  });
});

describe('GET /v1/account and /v1/jobs/{jobId}', () => {
  it('obeys the cross-cutting rules', async () => {
    await expectCommonRules(app, '/v1/account');
    await expectCommonRules(app, '/v1/jobs/job_01ARZ3NDEKTSV4RRFFQ69G5FAV', 404);
  });

  it('describes the key and its account as a bare data object', async () => {
    const live = await app.newKey('live', { plan: 'pro', credits: 250 });
    const res = await app.get('/v1/account', live.key);
    const body = await res.json();
    expect(body).toEqual({
      data: { accountId: live.accountId, plan: { code: 'pro', name: 'Pro', status: 'active' }, key: { env: 'live', prefix: live.key.slice(0, 15) }, credits: { balance: 250 }, rateLimit: { requestsPerMinute: 120 } },
    });
  });

  it('answers job_not_found for any job until async jobs exist', async () => {
    await expectError(await app.get('/v1/jobs/job_01ARZ3NDEKTSV4RRFFQ69G5FAV', key), 404, 'job_not_found');
  });
});
