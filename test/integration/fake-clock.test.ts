import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../src/adapters/system/clock.js';
import { startTestApp, type TestApp } from '../support/app.js';

/** TTLs and bucket refill through the whole service, on a clock the test moves. */
const clock = new FakeClock('2027-03-01T09:00:00Z');
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ clock });
});
afterAll(() => app.close());

const MINUTE = 60_000;
async function cachedFlag(path: string, key: string): Promise<boolean> {
  const res = await app.get(path, key);
  expect(res.status).toBe(200);
  return ((await res.json()) as { meta: { cached: boolean } }).meta.cached;
}

describe('cache TTLs on a fake clock', () => {
  it.each([
    ['search', '/v1/search?location=Vienna&limit=2', 30],
    ['price', '/v1/price?platform=airbnb&listingId=41300001&checkIn=2027-04-01&checkOut=2027-04-03', 60],
    ['availability', '/v1/availability?platform=booking&listingId=2130001&startDate=2027-04-01&endDate=2027-04-10', 15],
    ['reviews', '/v1/reviews?platform=vrbo&listingId=6130001', 24 * 60],
  ])('%s entries live %i minutes', async (_name, path, minutes) => {
    const { key } = await app.newKey('sandbox');
    expect(await cachedFlag(path, key)).toBe(false);
    clock.advance(minutes * MINUTE - 1_000);
    expect(await cachedFlag(path, key)).toBe(true);
    clock.advance(2_000);
    expect(await cachedFlag(path, key)).toBe(false);
  });

  it('keeps a listing for 24 h but its embedded price only for 1 h', async () => {
    const { key } = await app.newKey('sandbox');
    const path = '/v1/listing/vrbo/6130002?checkIn=2027-05-01&checkOut=2027-05-04';
    expect(await cachedFlag(path, key)).toBe(false);
    clock.advance(61 * MINUTE);
    expect(await cachedFlag(path, key)).toBe(false); // detail cached, price fetched again
    expect(await cachedFlag('/v1/listing/vrbo/6130002', key)).toBe(true);
  });
});

describe('token bucket refill on a fake clock', () => {
  it('refuses the 31st request in a minute and admits one more every 2 s', async () => {
    const { key } = await app.newKey('sandbox');
    for (let i = 0; i < 30; i++) expect((await app.get('/v1/account', key)).status).toBe(200);
    const refused = await app.get('/v1/account', key);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('2');
    expect(refused.headers.get('x-ratelimit-reset')).toBe(String(Math.ceil((clock.now().getTime() + 60_000) / 1000)));
    clock.advance(2_000);
    expect((await app.get('/v1/account', key)).status).toBe(200);
    expect((await app.get('/v1/account', key)).status).toBe(429);
    clock.advance(60_000);
    const full = await app.get('/v1/account', key);
    expect(full.headers.get('x-ratelimit-remaining')).toBe('29');
  });
});
