import { describe, expect, it } from 'vitest';
import { CURRENCY_MINOR_UNITS, SUPPORTED_CURRENCIES, isSupportedCurrency, roundToMinor } from '../../src/domain/currency.js';
import { addDays, daysBetween, earliestAllowedDay, fromDayNumber, isInPast, isIsoDate, toDayNumber } from '../../src/domain/dates.js';

describe('toDayNumber / fromDayNumber', () => {
  it('counts days since 1970-01-01 UTC', () => {
    expect(toDayNumber('1970-01-01')).toBe(0);
    expect(toDayNumber('1970-01-02')).toBe(1);
    expect(toDayNumber('1969-12-31')).toBe(-1);
    expect(toDayNumber('2000-03-01')).toBe(11_017);
    expect(toDayNumber('2027-01-15')).toBe(20_833);
  });

  it('rejects dates that do not exist and strings that are not YYYY-MM-DD', () => {
    for (const bad of ['2027-02-30', '2027-02-29', '2100-02-29', '2027-04-31', '2027-13-01', '2027-00-10', '2027-01-00', '2027-01-32',
      '2027-1-5', '27-01-05', '2027/01/05', '2027-01-05T00:00:00Z', ' 2027-01-05', '2027-01-05 ', '20270105', '', 'yesterday', '+02027-01-05']) {
      expect(toDayNumber(bad), bad).toBeNull();
      expect(isIsoDate(bad), bad).toBe(false);
    }
  });

  it('accepts leap days of leap years', () => {
    expect(toDayNumber('2028-02-29')).toBe(toDayNumber('2028-03-01')! - 1);
    expect(toDayNumber('2000-02-29')).not.toBeNull();
  });

  it('round-trips through fromDayNumber', () => {
    for (const d of ['1970-01-01', '1999-12-31', '2000-02-29', '2027-01-15', '2027-12-31', '2099-06-30']) {
      expect(fromDayNumber(toDayNumber(d)!)).toBe(d);
    }
  });
});

describe('addDays / daysBetween', () => {
  it('crosses months, years and leap days', () => {
    expect(addDays('2027-01-31', 1)).toBe('2027-02-01');
    expect(addDays('2027-12-31', 1)).toBe('2028-01-01');
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2027-02-28', 1)).toBe('2027-03-01');
    expect(addDays('2027-03-01', -1)).toBe('2027-02-28');
    expect(addDays('2027-03-28', 2)).toBe('2027-03-30');
  });

  it('daysBetween counts nights, and is NaN for invalid dates', () => {
    expect(daysBetween('2027-05-01', '2027-05-05')).toBe(4);
    expect(daysBetween('2027-05-05', '2027-05-01')).toBe(-4);
    expect(daysBetween('2027-01-01', '2028-01-01')).toBe(365);
    expect(daysBetween('2028-01-01', '2029-01-01')).toBe(366);
    expect(daysBetween('2027-02-30', '2027-03-01')).toBeNaN();
  });
});

describe('isInPast: past only when past in every time zone', () => {
  it('allows yesterday (UTC) and refuses the day before, at any time of the UTC day', () => {
    for (const now of ['2027-01-15T00:00:00.000Z', '2027-01-15T12:00:00Z', '2027-01-15T23:59:59.999Z']) {
      const at = new Date(now);
      expect(isInPast('2027-01-13', at), now).toBe(true);
      expect(isInPast('2027-01-14', at), now).toBe(false);
      expect(isInPast('2027-01-15', at), now).toBe(false);
      expect(isInPast('2027-01-16', at), now).toBe(false);
      expect(earliestAllowedDay(at)).toBe(toDayNumber('2027-01-14'));
    }
  });

  it('moves at midnight UTC', () => {
    expect(isInPast('2027-01-14', new Date('2027-01-15T23:59:59.999Z'))).toBe(false);
    expect(isInPast('2027-01-14', new Date('2027-01-16T00:00:00.000Z'))).toBe(true);
  });

  it('crosses year boundaries', () => {
    const now = new Date('2027-01-01T06:00:00Z');
    expect(isInPast('2026-12-31', now)).toBe(false);
    expect(isInPast('2026-12-30', now)).toBe(true);
    expect(isInPast('1999-01-01', now)).toBe(true);
  });

  it('does not call an invalid date past (it is refused as invalid elsewhere)', () => {
    expect(isInPast('2020-02-30', new Date('2027-01-15T00:00:00Z'))).toBe(false);
  });
});

describe('roundToMinor', () => {
  it.each([
    [1.005, 'USD', 1.01],
    [2.675, 'USD', 2.68],
    [8.345, 'USD', 8.35],
    [10.235, 'EUR', 10.24],
    [0.125, 'GBP', 0.13],
    [1.0049999, 'USD', 1],
    [1.004, 'USD', 1],
    [123456.785, 'USD', 123456.79],
    [-1.005, 'USD', -1.01],
    [-2.675, 'EUR', -2.68],
    [-0.125, 'USD', -0.13],
    [1234.5, 'JPY', 1235],
    [1234.4999, 'JPY', 1234],
    [-1234.5, 'JPY', -1235],
    [0.5, 'JPY', 1],
    [1.5, 'KRW', 2],
    [99.5, 'ISK', 100],
    [1.005, 'XXX', 1.01],
    [0, 'USD', 0],
    [42, 'USD', 42],
  ] as const)('%d %s -> %d', (amount, currency, expected) => {
    expect(roundToMinor(amount, currency)).toBe(expected);
  });

  it('a tiny negative rounds to zero', () => {
    expect(roundToMinor(-0.001, 'USD') === 0).toBe(true);
  });

  it('zero-decimal currencies always give integers', () => {
    for (let i = 0; i < 500; i++) {
      const amount = (i * 7919.37) / 13;
      expect(Number.isInteger(roundToMinor(amount, 'JPY'))).toBe(true);
    }
  });

  it('two-decimal results have at most two decimals', () => {
    for (let i = 0; i < 500; i++) {
      const r = roundToMinor((i * 104_729.131) / 97, 'USD');
      expect(Math.abs(r * 100 - Math.round(r * 100))).toBeLessThan(1e-6);
      expect(String(r)).toMatch(/^-?\d+(\.\d{1,2})?$/);
    }
  });
});

describe('currency table', () => {
  it('knows minor units of zero-decimal currencies', () => {
    expect(CURRENCY_MINOR_UNITS.JPY).toBe(0);
    expect(CURRENCY_MINOR_UNITS.KRW).toBe(0);
    expect(CURRENCY_MINOR_UNITS.USD).toBe(2);
    expect(SUPPORTED_CURRENCIES).toContain('EUR');
  });

  it('supports only listed ISO codes, case-sensitively and without prototype keys', () => {
    expect(isSupportedCurrency('USD')).toBe(true);
    expect(isSupportedCurrency('usd')).toBe(false);
    expect(isSupportedCurrency('XXX')).toBe(false);
    expect(isSupportedCurrency('toString')).toBe(false);
    expect(isSupportedCurrency('__proto__')).toBe(false);
  });
});
