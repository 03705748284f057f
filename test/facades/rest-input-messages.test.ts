import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../src/domain/dates.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { expectError } from '../support/common-rules.js';

const today = new Date().toISOString().slice(0, 10);
const checkIn = addDays(today, 40);
const checkOut = addDays(today, 43);

let app: TestApp;
let key: string;
beforeAll(async () => {
  app = await startTestApp();
  ({ key } = await app.newKey('sandbox'));
});
afterAll(() => app.close());

describe('bad input is explained in the words of the request', () => {
  it.each([
    ['adults=2.5', 'adults', 'not_integer', 'adults must be a whole number.'],
    ['rooms=1.0', 'rooms', 'not_integer', 'rooms must be a whole number.'],
    ['adults=many', 'adults', 'invalid_type', 'adults must be a number.'],
    ['adults=0', 'adults', 'out_of_range', 'adults must be at least 1.'],
    [`checkIn=2027-02-30&checkOut=2027-03-02`, 'checkIn', 'invalid_date', 'checkIn is not a calendar date.'],
    [`checkIn=27-02-01&checkOut=2027-03-02`, 'checkIn', 'invalid_format', 'checkIn must be a date as YYYY-MM-DD.'],
    ['platforms=airbnb,myspace', 'platforms', 'invalid_value', 'platforms (item 2) must be one of: airbnb, booking, vrbo, expedia, hotels, google, tripadvisor.'],
    ['sort=cheapest', 'sort', 'invalid_value', 'sort must be one of: recommended, price_asc, price_desc, rating_desc, distance_asc.'],
    ['rooms=2&rooms=3', 'rooms', 'repeated_parameter', 'rooms takes one value; it was given 2 times.'],
    ['limit=5&limit=6', 'limit', 'repeated_parameter', 'limit takes one value; it was given 2 times.'],
  ])('%s', async (query, param, subCode, message) => {
    const err = await expectError(await app.get(`/v1/search?location=Lisbon&${query}`, key), 400, 'invalid_request');
    expect({ param: err.param, subCode: err.subCode, message: err.message }).toEqual({ param, subCode, message });
  });

  it('says the same to a JSON body, naming the field as sent', async () => {
    const res = await fetch(`${app.baseUrl}/v1/search`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ location: 'Lisbon', platforms: ['airbnb', 'myspace'], adults: 2.5 }),
    });
    const err = await expectError(res, 400, 'invalid_request');
    expect(err.param === 'platforms' || err.param === 'adults').toBe(true);
    expect(err.param).not.toContain('.');
  });
});

describe('unknown query parameters', () => {
  it('are tolerated and named in an unknown_parameter warning', async () => {
    const res = await app.get(`/v1/search?location=Lisbon&limt=5&checkin=${checkIn}&checkOut=${checkOut}&checkIn=${checkIn}`, key);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: unknown[]; meta: { warnings: { code: string; message: string }[] } };
    expect(body.data).toHaveLength(20); // limt is not limit: the default applies
    const warning = body.meta.warnings.find((w) => w.code === 'unknown_parameter');
    expect(warning?.message).toContain('"limt"');
    expect(warning?.message).toContain('"checkin"');
  });

  it('give no warning when every parameter is known, on any endpoint', async () => {
    const res = await app.get(`/v1/price?platform=airbnb&listingId=123&checkIn=${checkIn}&checkOut=${checkOut}`, key);
    const body = (await res.json()) as { meta: { warnings: { code: string }[] } };
    expect(body.meta.warnings.map((w) => w.code)).not.toContain('unknown_parameter');
    const listing = await app.get(`/v1/listing/airbnb/123?currency=EUR&utm_source=x`, key);
    const listingBody = (await listing.json()) as { meta: { warnings: { code: string; message: string }[] } };
    expect(listingBody.meta.warnings.filter((w) => w.code === 'unknown_parameter').map((w) => w.message)).toEqual([expect.stringContaining('"utm_source"')]);
  });
});

describe('operations without parameters', () => {
  it('tolerate stray query parameters', async () => {
    expect((await app.get('/v1/account?verbose=1', key)).status).toBe(200);
    const res = await app.get('/v1/platforms?verbose=1', key);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { meta: { warnings: { code: string; message: string }[] } };
    expect(body.meta.warnings).toEqual([{ code: 'unknown_parameter', message: expect.stringContaining('"verbose"') }]);
  });
});

describe('CORS: API keys do not belong in browsers', () => {
  it('answers no cross-origin grant, to a preflight or to a call', async () => {
    const preflight = await fetch(`${app.baseUrl}/v1/search?location=Lisbon`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://example.org', 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'authorization' },
    });
    expect(preflight.status).toBe(405);
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    const call = await app.get('/v1/search?location=Lisbon', key, { Origin: 'https://example.org' });
    expect(call.status).toBe(200);
    expect(call.headers.get('access-control-allow-origin')).toBeNull();
  });
});
