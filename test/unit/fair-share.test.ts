import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FairQueue, createPlatformShares } from '../../src/adapters/platforms/fair-share.js';
import { LegFailure } from '../../src/domain/ports/platform.js';

const tick = () => new Promise((r) => setImmediate(r));

/** Queues `n` acquisitions for `account`, recording the order in which they are granted. */
function enqueue(q: FairQueue, account: string, n: number, granted: { account: string; release: () => void }[], signal?: AbortSignal) {
  return Array.from({ length: n }, () => q.acquire(account, signal).then((release) => void granted.push({ account, release })));
}

describe('the fair queue of a platform connections', () => {
  it('serves a late account before the rest of an earlier burst', async () => {
    const q = new FairQueue({ slots: 2, perAccount: 2 });
    const granted: { account: string; release: () => void }[] = [];
    void enqueue(q, 'flood', 20, granted);
    await tick();
    expect(granted.map((g) => g.account)).toEqual(['flood', 'flood']);
    void enqueue(q, 'victim', 1, granted);
    granted[0]!.release();
    await tick();
    // The next free slot goes to the waiting account that was not served last: the victim.
    expect(granted.map((g) => g.account)).toEqual(['flood', 'flood', 'victim']);
  });

  it('never gives one account more than its cap, leaving slots for others', async () => {
    const q = new FairQueue({ slots: 8, perAccount: 6 });
    const granted: { account: string; release: () => void }[] = [];
    void enqueue(q, 'flood', 100, granted);
    await tick();
    expect(granted).toHaveLength(6);
    void enqueue(q, 'victim', 1, granted);
    await tick();
    expect(granted.at(-1)!.account).toBe('victim');
    expect(q.busy).toBe(7);
  });

  it('drops a waiter whose signal aborts, and never grants it a slot', async () => {
    const q = new FairQueue({ slots: 1, perAccount: 1 });
    const granted: { account: string; release: () => void }[] = [];
    void enqueue(q, 'a', 1, granted);
    await tick();
    const controller = new AbortController();
    const late = q.acquire('b', controller.signal);
    controller.abort(new Error('deadline'));
    await expect(late).rejects.toThrow('deadline');
    granted[0]!.release();
    await tick();
    expect({ busy: q.busy, queued: q.queued }).toEqual({ busy: 0, queued: 0 });
  });

  it('keeps its caps and serves every waiter, whatever the arrivals and releases (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 1, max: 6 }),
        fc.array(fc.record({ account: fc.constantFrom('a', 'b', 'c', 'd'), n: fc.integer({ min: 1, max: 8 }) }), { minLength: 1, maxLength: 12 }),
        async (slots, perAccount, arrivals) => {
          const q = new FairQueue({ slots, perAccount });
          const cap = Math.min(slots, perAccount);
          const live = new Map<string, number>();
          const order: string[] = [];
          let total = 0;
          const all: Promise<void>[] = [];
          for (const { account, n } of arrivals) {
            total += n;
            for (let i = 0; i < n; i++) {
              all.push(
                q.acquire(account).then(async (release) => {
                  order.push(account);
                  live.set(account, (live.get(account) ?? 0) + 1);
                  expect(live.get(account)!).toBeLessThanOrEqual(cap);
                  expect(q.busy).toBeLessThanOrEqual(slots);
                  await tick();
                  live.set(account, live.get(account)! - 1);
                  release();
                }),
              );
            }
          }
          await Promise.all(all);
          expect(order).toHaveLength(total);
          expect(q.busy).toBe(0);
          // Round-robin: while two accounts both wait, neither is served twice before the other once.
          const waitingFor = new Map<string, number>();
          for (const { account, n } of arrivals) waitingFor.set(account, (waitingFor.get(account) ?? 0) + n);
          const accounts = [...waitingFor.keys()];
          if (accounts.length >= 2 && cap === 1 && slots === 1) {
            const [x, y] = accounts as [string, string];
            const both = Math.min(waitingFor.get(x)!, waitingFor.get(y)!);
            const prefix = order.filter((a) => a === x || a === y).slice(0, 2 * both - 2);
            for (let i = 2; i < prefix.length; i++) expect(prefix[i] === prefix[i - 1] && prefix[i] === prefix[i - 2]).toBe(false);
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('fails a leg whose deadline passes while it waits as a timeout that is no platform fault', async () => {
    const shares = createPlatformShares({ slots: 1, perAccount: 1 });
    let hold!: () => void;
    const first = shares.run('airbnb', 'a', new AbortController().signal, () => new Promise<void>((r) => (hold = r)));
    const controller = new AbortController();
    let sent = false;
    const waiting = shares.run('airbnb', 'b', controller.signal, async () => void (sent = true));
    controller.abort(new Error('deadline'));
    const failure = await waiting.catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(LegFailure);
    expect(failure).toMatchObject({ status: 'timeout', platformFault: false });
    hold();
    await first;
    expect(sent).toBe(false);
  });
});
