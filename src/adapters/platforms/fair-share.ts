import type { Platform } from '../../domain/platforms.js';
import { LegAbandoned } from '../../domain/ports/platform.js';

export interface FairShareOptions {
  /** Legs in flight to one platform at most (its connection pool's size). */
  slots: number;
  /** Legs in flight to one platform for one account at most; clamped to `slots`. */
  perAccount: number;
}

interface Waiter {
  grant(release: () => void): void;
}

/**
 * The slots of one platform's connections shared among accounts: at most `slots` legs in flight,
 * at most `perAccount` of them one account's. A free slot goes to the waiting account with the
 * fewest legs in flight, ties served round-robin (the one served last goes to the back of the
 * ring), so a burst of one account queues behind itself while another account's leg takes the
 * next free slot. Within an account, first come first served.
 */
export class FairQueue {
  private readonly perAccount: number;
  private used = 0;
  private readonly inFlight = new Map<string, number>();
  private readonly waiting = new Map<string, Waiter[]>();
  /** Accounts with waiters, in the order they are next served. */
  private ring: string[] = [];

  constructor(readonly options: FairShareOptions) {
    this.perAccount = Math.max(1, Math.min(options.perAccount, options.slots));
  }

  /** Slots in use now, for tests and metrics. */
  get busy(): number {
    return this.used;
  }

  /** Legs waiting now, across accounts. */
  get queued(): number {
    let n = 0;
    for (const list of this.waiting.values()) n += list.length;
    return n;
  }

  /**
   * Resolves with the slot's release once the account may send; rejects with the signal's reason
   * (the slot is then never taken) when the signal aborts first.
   */
  acquire(account: string, signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        const list = this.waiting.get(account);
        const at = list?.indexOf(waiter) ?? -1;
        if (list && at >= 0) list.splice(at, 1);
        if (list && list.length === 0) this.forget(account);
        reject(signal!.reason);
      };
      const waiter: Waiter = {
        grant: (release) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(release);
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const list = this.waiting.get(account);
      if (list) list.push(waiter);
      else this.waiting.set(account, [waiter]), this.ring.push(account);
      this.dispatch();
    });
  }

  private forget(account: string): void {
    this.waiting.delete(account);
    this.ring = this.ring.filter((a) => a !== account);
  }

  /** The waiting account with the fewest legs in flight, below its cap; ties go by ring order. */
  private next(): number {
    let best = -1;
    let fewest = this.perAccount;
    this.ring.forEach((account, i) => {
      const n = this.inFlight.get(account) ?? 0;
      if (n < fewest) (best = i), (fewest = n);
    });
    return best;
  }

  private dispatch(): void {
    while (this.used < this.options.slots) {
      const at = this.next();
      if (at < 0) return;
      const account = this.ring[at]!;
      this.ring.splice(at, 1);
      const list = this.waiting.get(account)!;
      const waiter = list.shift()!;
      if (list.length > 0) this.ring.push(account);
      else this.waiting.delete(account);
      this.used++;
      this.inFlight.set(account, (this.inFlight.get(account) ?? 0) + 1);
      let released = false;
      waiter.grant(() => {
        if (released) return;
        released = true;
        this.used--;
        const left = (this.inFlight.get(account) ?? 1) - 1;
        if (left > 0) this.inFlight.set(account, left);
        else this.inFlight.delete(account);
        this.dispatch();
      });
    }
  }
}

/** Runs live legs in their account's fair share of the platform's connections. */
export interface PlatformShares {
  /**
   * Waits for a slot, then runs the leg (which sends the request) and frees the slot when it
   * settles. A deadline (the signal) that passes while the leg still waits fails it as `timeout`
   * that is NOT a platform fault: nothing was sent, so no breaker hears of it.
   */
  run<T>(platform: Platform, accountId: string, signal: AbortSignal, leg: () => Promise<T>): Promise<T>;
  queue(platform: Platform): FairQueue;
}

export function createPlatformShares(options: FairShareOptions): PlatformShares {
  const queues = new Map<Platform, FairQueue>();
  const queue = (platform: Platform) => {
    let q = queues.get(platform);
    if (!q) queues.set(platform, (q = new FairQueue(options)));
    return q;
  };
  return {
    queue,
    async run(platform, accountId, signal, leg) {
      const started = performance.now();
      let release: () => void;
      try {
        release = await queue(platform).acquire(accountId, signal);
      } catch {
        const waited = Math.round(performance.now() - started);
        throw new LegAbandoned(`${platform} was not asked: the leg waited ${waited} ms for a connection slot and passed its deadline`);
      }
      try {
        return await leg();
      } finally {
        release();
      }
    },
  };
}
