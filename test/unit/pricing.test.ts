import { describe, expect, it } from 'vitest';
import { legCredits, type BillableLeg, type CreditSchedule } from '../../src/domain/billing/pricing.js';
import { OPERATIONS, type Operation, type Platform } from '../../src/domain/platforms.js';

const ok = (platform: Platform, count: number, days?: number): BillableLeg => ({ platform, ok: true, count, ...(days === undefined ? {} : { days }) });
const live = (schedule: CreditSchedule, op: Operation, leg: BillableLeg) => legCredits(schedule, 'live', op, leg);

describe('legCredits: reference schedule (design.md section 3)', () => {
  it.each([
    ['search', ok('airbnb', 1), 5],
    ['search', ok('google', 40), 5],
    ['availability', ok('airbnb', 1, 30), 3],
    ['availability', ok('booking', 7, 365), 21],
    ['listing', ok('vrbo', 1), 1],
    ['price', ok('booking', 1), 1],
    ['priceCompare', ok('google', 6), 5],
    ['reviews', ok('airbnb', 1), 2],
    ['reviews', ok('airbnb', 20), 2],
    ['reviews', ok('booking', 21), 4],
    ['reviews', ok('vrbo', 40), 4],
    ['reviews', ok('google', 41), 6],
    ['reviews', ok('airbnb', 100), 10],
  ] as const)('%s %o -> %i', (op, leg, credits) => {
    expect(live('reference', op, leg)).toBe(credits);
  });
});

describe('legCredits: summary schedule (spec section 4)', () => {
  it.each([
    // search: rate x results, minimum 5; google 15 per page
    ['search', ok('airbnb', 1), 5],
    ['search', ok('airbnb', 2), 5],
    ['search', ok('airbnb', 3), 6],
    ['search', ok('airbnb', 20), 40],
    ['search', ok('booking', 4), 5],
    ['search', ok('booking', 7), 7],
    ['search', ok('vrbo', 20), 20],
    ['search', ok('google', 1), 15],
    ['search', ok('google', 100), 15],
    // availability: max(5, ceil(days/2)) per listing-window
    ['availability', ok('airbnb', 1, 3), 5],
    ['availability', ok('airbnb', 1, 10), 5],
    ['availability', ok('airbnb', 1, 11), 6],
    ['availability', ok('airbnb', 1, 30), 15],
    ['availability', ok('vrbo', 3, 365), 549],
    ['availability', ok('vrbo', 2), 10],
    // flat per leg
    ['listing', ok('airbnb', 1), 3],
    ['price', ok('google', 1), 3],
    ['priceCompare', ok('google', 7), 22],
    // reviews: rate x reviews, minimum 5 (airbnb 5x, booking and vrbo 1x)
    ['reviews', ok('airbnb', 1), 5],
    ['reviews', ok('airbnb', 3), 15],
    ['reviews', ok('booking', 3), 5],
    ['reviews', ok('booking', 20), 20],
    ['reviews', ok('vrbo', 6), 6],
  ] as const)('%s %o -> %i', (op, leg, credits) => {
    expect(live('summary', op, leg)).toBe(credits);
  });
});

describe('legCredits: what is never billed', () => {
  const schedules: CreditSchedule[] = ['reference', 'summary'];

  it('sandbox keys cost 0 for every operation, schedule and count', () => {
    for (const s of schedules) {
      for (const op of OPERATIONS) {
        for (const count of [0, 1, 20, 100]) {
          expect(legCredits(s, 'sandbox', op, ok('google', count, 30))).toBe(0);
          expect(legCredits(s, 'sandbox', op, ok('airbnb', count, 30))).toBe(0);
        }
      }
    }
  });

  it('failed legs cost 0 even when they carry items', () => {
    for (const s of schedules) {
      for (const op of OPERATIONS) {
        expect(legCredits(s, 'live', op, { platform: 'airbnb', ok: false, count: 20, days: 30 })).toBe(0);
      }
    }
  });

  it('empty ok legs cost 0, including summary minimums and google flat rates', () => {
    for (const s of schedules) {
      for (const op of OPERATIONS) {
        expect(legCredits(s, 'live', op, ok('google', 0, 30))).toBe(0);
        expect(legCredits(s, 'live', op, ok('booking', 0, 30))).toBe(0);
      }
    }
  });

  it('every billable live leg costs a positive integer', () => {
    for (const s of schedules) {
      for (const op of OPERATIONS) {
        const c = live(s, op, ok('vrbo', 1, 1));
        expect(Number.isInteger(c) && c > 0, `${s} ${op} -> ${c}`).toBe(true);
      }
    }
  });
});
