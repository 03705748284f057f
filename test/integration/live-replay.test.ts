import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replayLiveConfig, startReplayUpstream, type ReplayUpstream } from '../support/replay-upstream.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { expectError } from '../support/common-rules.js';

/**
 * Live keys end to end against the replay upstream serving the project's own recorded-shape
 * fixtures: HTTP -> platform client -> parser -> cache -> credits, with faults injected upstream.
 */
let app: TestApp;
let replay: ReplayUpstream;
let replayUrl = '';

async function setFaults(faults: Record<string, unknown>): Promise<void> {
  await fetch(`${replayUrl}/__replay`, { method: 'POST', body: JSON.stringify(faults) });
}

beforeAll(async () => {
  replay = await startReplayUpstream();
  replayUrl = replay.url;
  app = await startTestApp({
    config: {
      legDeadlineMs: 5_000,
      live: replayLiveConfig(replayUrl),
    },
  });
});
afterAll(async () => {
  await app.close();
  await replay.close();
});

interface Envelope {
  data: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  meta: { creditsCharged: number; partial: boolean; platformResults: { platform: string; status: string; count: number; creditsCharged: number }[]; warnings: { code: string; platform?: string }[] };
}

async function ok(path: string, key: string): Promise<Envelope> {
  const res = await app.get(path, key);
  const text = await res.text();
  expect(res.status, text).toBe(200);
  return JSON.parse(text) as Envelope;
}

describe('live keys against the replay upstream', () => {
  it('searches four platforms and bills each platform that returned items', async () => {
    const { key, accountId } = await app.newKey('live', { plan: 'scale', credits: 100 });
    const body = await ok('/v1/search?location=Lisbon&platforms=airbnb,booking,vrbo,google&limit=20', key);
    expect(body.meta.platformResults.map((r) => [r.platform, r.status])).toEqual([['airbnb', 'ok'], ['booking', 'ok'], ['vrbo', 'ok'], ['google', 'ok']]);
    const ids = body.data.map((p: { id: string }) => p.id);
    expect(ids).toEqual(expect.arrayContaining(['stays_airbnb_910000001', 'stays_booking_4400101', 'stays_google_ChkIfx1AzulejoTeste0001EAE']));
    expect(ids.some((id: string) => id.startsWith('stays_vrbo_'))).toBe(true);
    expect(body.meta.creditsCharged).toBe(20);
    expect(await app.balanceOf(accountId)).toBe(80);
  });

  it('quotes a price with its fees, a calendar, reviews and a price comparison, each billed per the table', async () => {
    const { key, accountId } = await app.newKey('live', { plan: 'scale', credits: 100 });
    const price = await ok('/v1/price?platform=airbnb&listingId=910000001&checkIn=2027-06-10&checkOut=2027-06-14', key);
    expect(price.data).toMatchObject({ platform: 'airbnb', listingId: '910000001', currency: 'USD', nights: 4, totalPrice: 625.53 });
    expect(price.data.fees.cleaning).toEqual(expect.any(Number));
    expect(price.meta.creditsCharged).toBe(1);

    const calendar = await ok('/v1/availability?platform=airbnb&listingId=910000001&startDate=2027-06-07&endDate=2027-06-13', key);
    expect(calendar.data[0].dates).toHaveLength(7);
    expect(calendar.meta.creditsCharged).toBe(3);

    const reviews = await ok('/v1/reviews?platform=airbnb&listingId=910000001', key);
    expect(reviews.data).toHaveLength(4);
    expect(reviews.meta.creditsCharged).toBe(2);

    const compare = await ok('/v1/price-compare?googleHotelId=ChkIfx1AzulejoTeste0001EAE&checkIn=2031-06-10&checkOut=2031-06-13', key);
    expect(compare.data.offers.length).toBeGreaterThan(1);
    expect(compare.data.min).toBe(Math.min(...compare.data.offers.map((o: { totalPrice: number }) => o.totalPrice)));
    // Min and median over the all-in offers; the one OTA that does not say is listed apart.
    expect(compare.data).toMatchObject({ basis: 'all_in', min: 598, median: 600 });
    expect(compare.data.offers.every((o: { basis: string }) => o.basis === 'all_in')).toBe(true);
    expect(compare.data.otherOffers).toEqual([expect.objectContaining({ ota: 'Exemplo Travel', totalPrice: 605, basis: 'unknown' })]);
    expect(compare.meta.warnings.map((w) => w.code)).toContain('offers_basis_mixed');
    expect(compare.meta.creditsCharged).toBe(5);

    expect(await app.balanceOf(accountId)).toBe(100 - 1 - 3 - 2 - 5);
  });

  it('serves a booking listing from its hotel page JSON-LD, by hotel id or page URL, with the stay price embedded', async () => {
    const { key } = await app.newKey('live', { plan: 'scale', credits: 100 });
    const listing = await ok('/v1/listing/booking/4400101', key);
    expect(listing.data).toMatchObject({ id: 'stays_booking_4400101', name: 'Harbour Lantern Suites', location: { lat: 35.8977, lng: 14.5125, country: 'MT' }, guestRating: 8.9, price: null });
    expect(listing.meta.creditsCharged).toBe(1);
    const byUrl = await ok(`/v1/listing/booking/${encodeURIComponent('https://www.booking.com/hotel/mt/harbour-lantern-suites.html')}?checkIn=2027-06-10&checkOut=2027-06-14`, key);
    expect(byUrl.data).toMatchObject({ platformListingId: 'mt/harbour-lantern-suites', name: 'Harbour Lantern Suites', price: { basis: 'all_in', totalPrice: 416 } });
  });

  it('serves google reviews from Google Maps by place id; a Hotels property token is a 400 naming listingId', async () => {
    const { key, accountId } = await app.newKey('live', { plan: 'scale', credits: 100 });
    const reviews = await ok('/v1/reviews?platform=google&listingId=ChIJfx1AzulejoTeste0001&limit=4', key);
    expect(reviews.data.map((r: { rating: number }) => r.rating)).toEqual([5, 4, 3, 5]);
    expect(reviews.data[2].text).toBeNull();
    expect(reviews.meta.creditsCharged).toBe(2);
    const err = await expectError(await app.get('/v1/reviews?platform=google&listingId=ChkIfx1AzulejoTeste0001EAE', key), 400, 'invalid_listing_id');
    expect(err.param).toBe('listingId');
    expect(await app.balanceOf(accountId)).toBe(98);
  });

  it('does not bill a window the platform returned none of the days of, and bills a partly covered one', async () => {
    const { key, accountId } = await app.newKey('live', { plan: 'scale', credits: 100 });
    // The recorded calendar covers June and July 2027 only.
    const none = await ok('/v1/availability?platform=airbnb&listingId=910000001&startDate=2027-09-01&endDate=2027-09-07', key);
    expect(none.data[0].dates).toEqual([]);
    expect(none.meta.warnings.map((w) => w.code)).toContain('availability_incomplete');
    expect(none.meta.platformResults.map((r) => [r.status, r.count, r.creditsCharged])).toEqual([['empty', 0, 0]]);
    expect(none.meta.creditsCharged).toBe(0);

    const part = await ok('/v1/availability?platform=airbnb&listingId=910000001&startDate=2027-07-28&endDate=2027-08-03', key);
    expect(part.data[0].dates).toHaveLength(4);
    expect(part.meta.warnings.map((w) => w.code)).toContain('availability_incomplete');
    expect(part.meta.creditsCharged).toBe(3);
    expect(await app.balanceOf(accountId)).toBe(97);
  });

  it('is partial when one platform fails or is blocked, and charges only the good legs', async () => {
    const { key, accountId } = await app.newKey('live', { plan: 'scale', credits: 100 });
    await setFaults({ platform: 'vrbo', errorRate: 1 });
    await setFaults({ platform: 'booking', blockedRate: 1 });
    try {
      const body = await ok('/v1/search?location=Porto&platforms=airbnb,booking,vrbo,google&limit=20', key);
      expect(body.meta.partial).toBe(true);
      expect(body.meta.platformResults.map((r) => [r.platform, r.status, r.creditsCharged])).toEqual([['airbnb', 'ok', 5], ['booking', 'blocked', 0], ['vrbo', 'failed', 0], ['google', 'ok', 5]]);
      expect(body.meta.creditsCharged).toBe(10);
      expect(await app.balanceOf(accountId)).toBe(90);
    } finally {
      await fetch(`${replayUrl}/__replay`, { method: 'DELETE' });
    }
  });

  it('answers 503 at no cost when every platform fails', async () => {
    const { key, accountId } = await app.newKey('live', { plan: 'scale', credits: 100 });
    await setFaults({ errorRate: 1 });
    try {
      await expectError(await app.get('/v1/search?location=Madrid&platforms=airbnb,booking,vrbo,google', key), 503, 'upstream_unavailable');
      expect(await app.balanceOf(accountId)).toBe(100);
    } finally {
      await fetch(`${replayUrl}/__replay`, { method: 'DELETE' });
    }
  });
});
