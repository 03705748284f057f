import { describe, expect, it } from 'vitest';
import { createSandboxAdapters } from '../../src/adapters/platforms/sandbox/adapter.js';
import { listingId } from '../../src/adapters/platforms/sandbox/ids.js';
import { BOARDS, FEE_KINDS, PAYMENTS, VERDICTS } from '../../src/domain/model/rates.js';
import type { Price } from '../../src/domain/model/price.js';
import type { Platform } from '../../src/domain/platforms.js';
import type { SearchQuery } from '../../src/domain/ports/platform.js';
import { meetsTerms } from '../../src/domain/rates/offer-terms.js';

/**
 * Issue 25: the sandbox reaches every case deterministically: every board and payment kind, both
 * refundability cases and unstated terms, every fee kind, all three verdicts and the absent ones.
 */
const signal = new AbortController().signal;
const occupancy = { adults: 2, children: 0, childAges: [] };
const set = createSandboxAdapters();
async function price(platform: Platform, id: string, checkIn: string, checkOut: string): Promise<{ value: Price; codes: string[] }> {
  const r = (await set.get(platform)!.price!({ listingId: id, currency: 'USD', checkIn, checkOut, occupancy }, signal))!;
  return { value: r.value, codes: r.warnings.map((w) => w.code) };
}

describe('sandbox rates', () => {
  it('every board, payment kind, refundable true/false/null and every fee kind occur; the top-level price is the cheapest offer', async () => {
    const boards = new Set<unknown>();
    const payments = new Set<unknown>();
    const refundable = new Set<unknown>();
    const kinds = new Set<string>();
    const included = new Set<boolean>();
    for (const p of ['booking', 'google', 'airbnb', 'vrbo'] as const) {
      for (let serial = 1; serial <= 30; serial++) {
        const { value } = await price(p, listingId(p, 0, serial), '2031-05-06', '2031-05-09');
        expect(value.offers.length).toBeGreaterThan(0);
        expect(value.offers[0]!.totalPrice).toBe(value.totalPrice);
        for (const o of value.offers) {
          boards.add(o.board);
          payments.add(o.payment);
          refundable.add(o.refundable);
          expect(o.freeCancellationUntil !== null).toBe(o.refundable === true);
        }
        for (const i of value.fees.items) (kinds.add(i.kind), included.add(i.included));
        const sum = (k: string[]) => value.fees.items.filter((i) => k.includes(i.kind)).reduce((s, i) => s + i.amount, 0);
        if (value.fees.taxes !== null) expect(value.fees.taxes).toBeCloseTo(sum(['tax', 'city_tax']), 2);
      }
    }
    expect(boards).toEqual(new Set([...BOARDS, null]));
    expect(payments).toEqual(new Set([...PAYMENTS, null]));
    expect(refundable).toEqual(new Set([true, false, null]));
    expect(kinds).toEqual(new Set(FEE_KINDS));
    expect(included).toEqual(new Set([true, false]));
  });

  it('context: google gives all three verdicts by season; the other platforms null with price_context_unavailable', async () => {
    const id = listingId('google', 0, 1);
    const verdict = async (a: string, b: string) => (await price('google', id, a, b)).value.context!.verdict;
    expect(await verdict('2031-01-14', '2031-01-16')).toBe('low');
    expect(await verdict('2031-04-08', '2031-04-10')).toBe('typical');
    expect(await verdict('2031-07-11', '2031-07-13')).toBe('high');
    expect(new Set(VERDICTS).size).toBe(3);
    const other = await price('booking', listingId('booking', 0, 1), '2031-04-08', '2031-04-10');
    expect(other.value.context).toBeNull();
    expect(other.codes).toContain('price_context_unavailable');
  });

  it('calendars: booking and vrbo state nightly prices on available nights, airbnb none (with a warning)', async () => {
    const req = { startDate: '2031-05-01', endDate: '2031-05-20', currency: 'EUR' };
    const booking = (await set.get('booking')!.availability!({ listingId: listingId('booking', 0, 2), ...req }, signal))!;
    expect(booking.value.every((d) => (d.available ? typeof d.nightlyPrice === 'number' : d.nightlyPrice === null))).toBe(true);
    const airbnb = (await set.get('airbnb')!.availability!({ listingId: listingId('airbnb', 0, 2), ...req }, signal))!;
    expect(airbnb.value.every((d) => d.nightlyPrice === null)).toBe(true);
    expect(airbnb.warnings.map((w) => w.code)).toEqual(['nightly_price_unavailable']);
  });

  it('search refundable and board filters: kept items meet them or have unknown terms (said by a warning); none dropped wrongly', async () => {
    const base: SearchQuery = {
      location: 'Lisbon', area: { centre: null, radiusKm: null, box: null }, checkIn: '2031-05-06', checkOut: '2031-05-09', occupancy, rooms: 1, propertyTypes: [], amenities: [], minBedrooms: null,
      priceMin: null, priceMax: null, minGuestRating: null, refundable: null, board: null, platforms: ['booking'], sort: 'recommended', currency: 'USD',
    };
    const all = await set.get('booking')!.search!({ query: base, offset: 0, count: 100 }, signal);
    const filtered = await set.get('booking')!.search!({ query: { ...base, refundable: true, board: 'breakfast' }, offset: 0, count: 100 }, signal);
    expect(filtered.items.length).toBeGreaterThan(0);
    expect(filtered.items.length).toBeLessThan(all.items.length);
    for (const item of all.items) {
      const { value } = await price('booking', item.platformListingId, '2031-05-06', '2031-05-09');
      const met = meetsTerms(value.offers, { refundable: true, board: 'breakfast' });
      expect(filtered.items.some((k) => k.id === item.id), item.id).toBe(met !== false);
    }
  });
});
