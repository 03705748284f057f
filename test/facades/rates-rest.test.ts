import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../src/domain/dates.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { expectError } from '../support/common-rules.js';

/** Issue 25 over REST with a sandbox key: the new parameters, their 400s, and what they add. */
const today = new Date().toISOString().slice(0, 10);
const start = addDays(today, 40);
let app: TestApp;
let key: string;
beforeAll(async () => {
  app = await startTestApp();
  ({ key } = await app.newKey('sandbox'));
});
afterAll(() => app.close());

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function ok(path: string): Promise<any> {
  const res = await app.get(path, key);
  expect(res.status, await res.clone().text()).toBe(200);
  return res.json();
}

describe('rates over REST', () => {
  const availability = `/v1/availability?platform=vrbo&listingId=6000004&startDate=${start}&endDate=${addDays(start, 45)}`;

  it('availability?nights=N: meta.cheapestStays, cheapest first, each priced from the nights it covers; 0 credits on sandbox', async () => {
    const body = await ok(`${availability}&nights=4&currency=GBP`);
    const stays = body.meta.cheapestStays as { listingId: string; checkIn: string; checkOut: string; totalPrice: number }[];
    expect(stays.length).toBeGreaterThan(0);
    expect(stays.length).toBeLessThanOrEqual(5);
    const byDate = new Map((body.data[0].dates as { date: string; nightlyPrice: number | null }[]).map((d) => [d.date, d]));
    for (const s of stays) {
      expect(addDays(s.checkIn, 4)).toBe(s.checkOut);
      const sum = [0, 1, 2, 3].reduce((t, i) => t + byDate.get(addDays(s.checkIn, i))!.nightlyPrice!, 0);
      expect(s.totalPrice).toBeCloseTo(sum, 2);
    }
    expect(body.meta.currency).toBe('GBP');
    expect(body.meta.creditsCharged).toBe(0);
    expect((await ok(availability)).meta.cheapestStays).toBeUndefined();
  });

  it('a cheapest stay\'s total is, to the cent, the subtotal /price gives for the same stay (one rounding rule, issue 34)', async () => {
    const own = (await app.newKey('sandbox')).key;
    const get = async (path: string) => {
      const res = await app.get(path, own);
      expect(res.status, await res.clone().text()).toBe(200);
      return res.json() as Promise<any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    };
    let compared = 0;
    for (const [platform, listingId] of [['vrbo', '6000004'], ['booking', '2000003'], ['booking', '2000007'], ['vrbo', '6000008']]) {
      for (const currency of ['EUR', 'USD']) {
        const body = await get(`/v1/availability?platform=${platform}&listingId=${listingId}&startDate=${start}&endDate=${addDays(start, 30)}&nights=3&currency=${currency}`);
        for (const stay of (body.meta.cheapestStays as { checkIn: string; checkOut: string; totalPrice: number }[]).slice(0, 2)) {
          const price = (await get(`/v1/price?platform=${platform}&listingId=${listingId}&checkIn=${stay.checkIn}&checkOut=${stay.checkOut}&currency=${currency}`)).data;
          const fees = (price.fees.items as { amount: number }[]).reduce((sum, f) => sum + f.amount, 0);
          expect([Math.round((price.totalPrice - fees) * 100) / 100, price.nightlyPrice], `${platform} ${listingId} ${stay.checkIn} ${currency}`).toEqual([stay.totalPrice, Math.round((stay.totalPrice / 3) * 100) / 100]);
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThanOrEqual(12);
  });

  it('nights and the search terms filters are checked: a 400 naming the field, never a 500', async () => {
    for (const n of ['0', '31', 'x', '2.5']) {
      const err = await expectError(await app.get(`${availability}&nights=${n}`, key), 400, 'invalid_request');
      expect(err.param).toBe('nights');
    }
    const err = await expectError(await app.get('/v1/search?location=Lisbon&refundable=true', key), 400, 'invalid_request');
    expect(err.param).toBe('refundable');
    expect((await expectError(await app.get('/v1/search?location=Lisbon&board=lunch', key), 400, 'invalid_request')).param).toBe('board');
  });

  it('search with refundable and board keeps fewer items, each with a matching offer or an offer_terms_unknown warning', async () => {
    const q = `/v1/search?location=Lisbon&checkIn=${start}&checkOut=${addDays(start, 3)}&platforms=booking&limit=100`;
    const all = await ok(q);
    const some = await ok(`${q}&refundable=true&board=breakfast`);
    expect(some.data.length).toBeGreaterThan(0);
    expect(some.data.length).toBeLessThan(all.data.length);
    // An item no offer settles (a full-board plan whose refund terms are unstated) is kept, and a warning says so.
    const unknown = await ok(`${q}&refundable=true&board=full_board`);
    expect((unknown.meta.warnings as { code: string; platform?: string }[]).some((w) => w.code === 'offer_terms_unknown' && w.platform === 'booking')).toBe(true);
  });
});
