import { describe, expect, it } from 'vitest';
import { FaultWindow, wilsonLowerBound } from '../../src/adapters/platforms/fault-window.js';

/** The breaker's evidence: a ratio over a sliding window, with a minimum of legs and of accounts. */
const OPTIONS = { windowMs: 10_000, failureRate: 0.5, minCalls: 10, minAccounts: 2 };

function windowAt(start = 1_000_000) {
  let now = start;
  const window = new FaultWindow(OPTIONS, () => now);
  return { window, advance: (ms: number) => (now += ms) };
}

describe('FaultWindow', () => {
  it('is not failing below the minimum of legs, however many failed', () => {
    const { window } = windowAt();
    for (let i = 0; i < 9; i++) window.record(i % 2 ? 'a' : 'b', true);
    expect(window.failing()).toBe(false);
    window.record('a', true);
    expect(window.failing()).toBe(true);
  });

  it('is not failing when every fault comes from one account', () => {
    const { window } = windowAt();
    for (let i = 0; i < 50; i++) window.record('a', true);
    expect(window.failing()).toBe(false);
    window.record('b', true);
    expect(window.failing()).toBe(true);
  });

  it('judges the share of faults: 30% stays closed, surely over half opens', () => {
    const { window } = windowAt();
    for (let i = 0; i < 100; i++) window.record(i % 2 ? 'a' : 'b', i % 10 < 3);
    expect(window.totals()).toEqual({ calls: 100, faults: 30, accounts: 2 });
    expect(window.failing()).toBe(false);
    for (let i = 0; i < 100; i++) window.record('c', true);
    expect(window.failing()).toBe(true);
  });

  it('does not open on the luck of the first legs: 6 faults of 10 is not proof', () => {
    const { window } = windowAt();
    for (let i = 0; i < 10; i++) window.record(i % 2 ? 'a' : 'b', i < 6);
    expect(window.failing()).toBe(false);
    for (let i = 0; i < 10; i++) window.record('c', true);
    expect(window.totals()).toEqual({ calls: 20, faults: 16, accounts: 3 });
    expect(window.failing()).toBe(true);
  });

  it('bounds the share from below (Wilson, 95%)', () => {
    expect(wilsonLowerBound(0, 0)).toBe(0);
    expect(wilsonLowerBound(10, 10)).toBeCloseTo(0.7225, 4);
    expect(wilsonLowerBound(8, 10)).toBeLessThan(0.5);
    expect(wilsonLowerBound(9, 10)).toBeGreaterThan(0.5);
    expect(wilsonLowerBound(150, 1000)).toBeCloseTo(0.1291, 3);
  });

  it('forgets legs older than the window', () => {
    const { window, advance } = windowAt();
    for (let i = 0; i < 20; i++) window.record(i % 2 ? 'a' : 'b', true);
    expect(window.failing()).toBe(true);
    advance(5_000);
    for (let i = 0; i < 20; i++) window.record('c', false);
    expect(window.totals()).toEqual({ calls: 40, faults: 20, accounts: 2 });
    advance(6_000);
    expect(window.totals()).toEqual({ calls: 20, faults: 0, accounts: 0 });
    expect(window.failing()).toBe(false);
  });

  it('starts afresh after a reset', () => {
    const { window } = windowAt();
    for (let i = 0; i < 20; i++) window.record(i % 2 ? 'a' : 'b', true);
    window.reset();
    expect(window.totals()).toEqual({ calls: 0, faults: 0, accounts: 0 });
  });
});
