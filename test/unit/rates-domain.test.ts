import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays } from '../../src/domain/dates.js';
import type { CalendarDay } from '../../src/domain/model/availability.js';
import type { FeeItem } from '../../src/domain/model/rates.js';
import { boardOf } from '../../src/domain/rates/board-words.js';
import { cheapestStays } from '../../src/domain/rates/cheapest-stays.js';
import { priceContext, verdictOf } from '../../src/domain/rates/context.js';
import { feesFromItems } from '../../src/domain/rates/fees.js';
import { meetsTerms } from '../../src/domain/rates/offer-terms.js';

const day = (date: string, over: Partial<CalendarDay> = {}): CalendarDay => ({ date, available: true, minNights: 1, checkIn: true, checkOut: true, bookable: true, nightlyPrice: 100, ...over });
const run = (start: string, prices: (number | null)[], over: (i: number) => Partial<CalendarDay> = () => ({})) =>
  prices.map((p, i) => day(addDays(start, i), { nightlyPrice: p, ...over(i) }));

describe('cheapest stays (issue 25 item 5)', () => {
  it('sums the nights of each allowed stay and lists the cheapest first, at most five', () => {
    const days = run('2027-05-01', [100, 80, 90, 120, 70, 60, 200, 50]);
    expect(cheapestStays('L', days, 2, 'USD')).toEqual([
      { listingId: 'L', checkIn: '2027-05-05', checkOut: '2027-05-07', totalPrice: 130 },
      { listingId: 'L', checkIn: '2027-05-02', checkOut: '2027-05-04', totalPrice: 170 },
      { listingId: 'L', checkIn: '2027-05-01', checkOut: '2027-05-03', totalPrice: 180 },
      { listingId: 'L', checkIn: '2027-05-04', checkOut: '2027-05-06', totalPrice: 190 },
      { listingId: 'L', checkIn: '2027-05-03', checkOut: '2027-05-05', totalPrice: 210 },
    ]);
  });

  it('respects check-in and check-out flags, minimum stays, unavailable and unpriced nights', () => {
    const base = run('2027-05-01', [10, 10, 10, 10, 10, 10]);
    const only = (days: CalendarDay[]) => cheapestStays('L', days, 2, 'USD').map((s) => s.checkIn);
    expect(only(base)).toEqual(['2027-05-01', '2027-05-02', '2027-05-03', '2027-05-04']);
    expect(only(base.map((d, i) => (i === 0 ? { ...d, checkIn: false } : d)))).not.toContain('2027-05-01');
    expect(only(base.map((d, i) => (i === 2 ? { ...d, checkOut: false } : d)))).not.toContain('2027-05-01');
    expect(only(base.map((d, i) => (i === 1 ? { ...d, minNights: 3 } : d)))).not.toContain('2027-05-02');
    // Night 4 booked: only stays that do not sleep on it (the one leaving that day may still check out).
    expect(only(base.map((d, i) => (i === 3 ? { ...d, available: false } : d)))).toEqual(['2027-05-01', '2027-05-02']);
    expect(only(base.map((d, i) => (i === 1 ? { ...d, nightlyPrice: null } : d)))).toEqual(['2027-05-03', '2027-05-04']);
    // Unknown flags refuse nothing; a stay whose check-out day is outside the calendar is not offered.
    expect(only(base.map((d) => ({ ...d, checkIn: null, checkOut: null, bookable: null, minNights: null })))).toEqual(['2027-05-01', '2027-05-02', '2027-05-03', '2027-05-04']);
  });

  it('property: every stay listed is allowed, exactly priced, and no allowed stay is cheaper than the last listed', () => {
    const dayArb = fc.record({
      available: fc.boolean(),
      minNights: fc.option(fc.integer({ min: 1, max: 4 }), { nil: null }),
      checkIn: fc.option(fc.boolean(), { nil: null }),
      checkOut: fc.option(fc.boolean(), { nil: null }),
      nightlyPrice: fc.option(fc.integer({ min: 1, max: 500 }), { nil: null }),
    });
    fc.assert(
      fc.property(fc.array(dayArb, { minLength: 1, maxLength: 40 }), fc.integer({ min: 1, max: 5 }), (raw, nights) => {
        const days = raw.map((d, i) => ({ ...d, date: addDays('2027-01-01', i), bookable: null }));
        const byDate = new Map(days.map((d) => [d.date, d]));
        const allowed = (checkIn: string): number | null => {
          const first = byDate.get(checkIn)!;
          if (!first.available || first.checkIn === false || (first.minNights ?? 0) > nights) return null;
          const out = byDate.get(addDays(checkIn, nights));
          if (!out || out.checkOut === false) return null;
          let sum = 0;
          for (let i = 0; i < nights; i++) {
            const n = byDate.get(addDays(checkIn, i))!;
            if (!n.available || n.nightlyPrice === null) return null;
            sum += n.nightlyPrice;
          }
          return sum;
        };
        const every = days.map((d) => allowed(d.date)).filter((v): v is number => v !== null).sort((a, b) => a - b);
        const stays = cheapestStays('L', days, nights, 'USD');
        expect(stays.length).toBe(Math.min(5, every.length));
        expect(stays.map((s) => s.totalPrice)).toEqual(every.slice(0, stays.length));
        for (const s of stays) expect(allowed(s.checkIn)).toBe(s.totalPrice);
      }),
    );
  });
});

describe('fee lines and summaries (issue 25 item 3)', () => {
  const line = (kind: FeeItem['kind'], amount: number, included = true): FeeItem => ({ kind, name: kind, amount, included, payAtProperty: null });
  it('derives cleaning, service and taxes (tax plus city tax) from the lines; resort and other in no sum', () => {
    expect(feesFromItems([line('cleaning', 40), line('service', 10.1), line('tax', 0.1), line('city_tax', 0.2, false), line('resort', 25, false), line('other', 3)], 'USD')).toEqual({
      cleaning: 40, service: 10.1, taxes: 0.3, items: expect.any(Array),
    });
    expect(feesFromItems([line('resort', 5)], 'USD')).toMatchObject({ cleaning: null, service: null, taxes: null });
  });
  it('property: each summary is the exact sum of its lines, null when there is none', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ kind: fc.constantFrom('cleaning', 'service', 'tax', 'city_tax', 'resort', 'other' as const), cents: fc.integer({ min: 0, max: 100000 }) })), (raw) => {
        const items = raw.map((r) => line(r.kind, r.cents / 100));
        const fees = feesFromItems(items, 'USD');
        const sum = (kinds: string[]) => {
          const of = raw.filter((r) => kinds.includes(r.kind));
          return of.length ? of.reduce((s, r) => s + r.cents, 0) / 100 : null;
        };
        expect(fees.cleaning).toBe(sum(['cleaning']));
        expect(fees.service).toBe(sum(['service']));
        expect(fees.taxes).toBe(sum(['tax', 'city_tax']));
      }),
    );
  });
});

describe('price context and offer terms (issue 25 items 2 and 5)', () => {
  it('verdicts: below the range is low, above it high, within it (ends included) typical', () => {
    expect([verdictOf(99, 100, 200), verdictOf(100, 100, 200), verdictOf(200, 100, 200), verdictOf(201, 100, 200)]).toEqual(['low', 'typical', 'typical', 'high']);
    expect(priceContext(600, 3, { low: 142, high: 214 }, 'google', 'USD')).toEqual({ typicalLow: 142, typicalHigh: 214, verdict: 'typical', source: 'google' });
    expect(priceContext(600, 3, null, 'google', 'USD')).toBeNull();
    expect(priceContext(600, 3, { low: 300, high: 200 }, 'google', 'USD')).toBeNull();
  });
  it('boards from the platform\'s words; absence of words is not room only', () => {
    expect(['Breakfast included', 'Deluxe Double - Stay & Dine - KGK - Dinner and Breakfast', 'All inclusive', 'Deluxe Double - Book Early & Save', null].map(boardOf)).toEqual(['breakfast', 'half_board', 'all_inclusive', null, null]);
  });
  it('the search filter rule: met by one offer, refused when every offer states otherwise, unknown (kept) otherwise', () => {
    expect(meetsTerms([{ refundable: true, board: 'half_board' }], { refundable: true, board: 'breakfast' })).toBe(true);
    expect(meetsTerms([{ refundable: false, board: 'breakfast' }, { refundable: true, board: 'room_only' }], { refundable: true, board: 'breakfast' })).toBe(false);
    expect(meetsTerms([{ refundable: null, board: 'breakfast' }], { refundable: true, board: null })).toBeNull();
    expect(meetsTerms([], { refundable: true, board: null })).toBeNull();
  });
});
