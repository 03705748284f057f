import { describe, expect, it } from 'vitest';
import { createPlatformBreakers } from '../../src/adapters/platforms/circuit-breakers.js';
import { createPlatformShares } from '../../src/adapters/platforms/fair-share.js';
import { runLegs, type LegRuntime, type LegSpec } from '../../src/domain/operations/fan-out.js';
import { LegAbandoned, LegFailure } from '../../src/domain/ports/platform.js';

/**
 * What a breaker hears (issue 35): only what the platform did. Legs we end ourselves (the
 * deadline, in the queue or just after a slot was granted) leave its window untouched, and a
 * probe we abandoned keeps an open breaker open.
 */
const options = { windowMs: 10_000, failureRate: 0.5, minCalls: 2, minAccounts: 2, halfOpenAfterMs: 30 };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A platform call that is only ever ended by the leg's signal, as the HTTP client ends one. */
function untilAborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }));
}

describe('the evidence a platform breaker hears', () => {
  it('is none from legs whose deadline passed while waiting for a slot or right after getting one', async () => {
    const breakers = createPlatformBreakers(options, Date.now);
    const shares = createPlatformShares({ slots: 1, perAccount: 1 });
    const runtime = (account: string): LegRuntime => ({
      legDeadlineMs: 40,
      guard: (platform, leg, signal) => shares.run(platform, account, signal, () => breakers.run(platform, account, leg)),
    });
    const spec: LegSpec<number> = { platform: 'airbnb', operation: 'availability', run: untilAborted, count: () => 1 };
    // Two accounts, six legs each on one slot: one is granted it, the rest time out in the queue,
    // some of them granted the slot in the instant their deadline passes.
    const legs = await Promise.all(['a', 'b'].map((account) => runLegs(Array.from({ length: 6 }, () => spec), runtime(account))));
    expect(legs.flat().map((l) => l.status)).toEqual(Array.from({ length: 12 }, () => 'timeout'));
    expect(breakers.window('airbnb')).toEqual({ calls: 0, faults: 0, accounts: 0 });
    expect(breakers.state('airbnb')).toBe('closed');
  });

  it('keeps an open breaker open when its probe was abandoned, and closes it on a probe that was answered', async () => {
    const breakers = createPlatformBreakers(options, Date.now);
    const fault = () => Promise.reject(new LegFailure('failed', 'HTTP 502', { platformFault: true }));
    // Four of four from two accounts: the fault share's 95% interval then lies above half.
    for (const account of ['a', 'b', 'a', 'b']) await expect(breakers.run('vrbo', account, fault)).rejects.toThrow('502');
    expect(breakers.state('vrbo')).toBe('open');

    await sleep(40);
    await expect(breakers.run('vrbo', 'c', () => Promise.reject(new LegAbandoned('vrbo did not answer within 40 ms')))).rejects.toThrow('40 ms');
    expect(breakers.state('vrbo')).toBe('open');

    await sleep(40);
    await expect(breakers.run('vrbo', 'c', async () => 'answered')).resolves.toBe('answered');
    expect(breakers.state('vrbo')).toBe('closed');
  });
});
