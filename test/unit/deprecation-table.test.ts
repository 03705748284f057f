import { describe, expect, it } from 'vitest';
import { DEPRECATIONS, givesEnoughNotice, usedDeprecations, type Deprecation } from '../../src/domain/lifecycle/deprecations.js';

/** Spec 9's rule over the shipped table: every sunset comes at least 6 months after its deprecation. */
describe('the deprecation table', () => {
  it.each(DEPRECATIONS.map((d) => [JSON.stringify(d.target), d] as const))('%s gives 6 months of notice', (_name, d) => {
    expect(givesEnoughNotice(d)).toBe(true);
    expect(d.changelogAnchor).toMatch(/^[a-z0-9-]+$/);
  });

  it('ships empty: nothing in /v1 is deprecated', () => {
    expect(DEPRECATIONS).toEqual([]);
  });

  const entry = (deprecatedOn: string, sunsetOn: string): Deprecation => ({ target: { kind: 'operation', operation: 'search' }, deprecatedOn, sunsetOn, replacement: 'x', changelogAnchor: 'x' });
  it('counts notice in calendar months', () => {
    expect(givesEnoughNotice(entry('2027-01-31', '2027-07-31'))).toBe(true);
    expect(givesEnoughNotice(entry('2027-01-15', '2027-07-14'))).toBe(false);
    expect(givesEnoughNotice(entry('2027-01-15', '2027-03-01'))).toBe(false);
  });

  it('finds values sent as lists or comma-separated text, and only on their operation', () => {
    const value: Deprecation = { ...entry('2027-01-01', '2027-07-01'), target: { kind: 'value', operation: 'search', parameter: 'platforms', value: 'vrbo' } };
    expect(usedDeprecations([value], 'search', { platforms: 'airbnb,vrbo' })).toHaveLength(1);
    expect(usedDeprecations([value], 'search', { platforms: ['vrbo'] })).toHaveLength(1);
    expect(usedDeprecations([value], 'search', { platforms: ['airbnb'] })).toHaveLength(0);
    expect(usedDeprecations([value], 'reviews', { platforms: ['vrbo'] })).toHaveLength(0);
  });
});
