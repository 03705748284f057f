/**
 * The recent legs of one platform, in one-second buckets over a sliding window: how many ran, how
 * many met a platform fault, and which accounts those faults came from. A circuit breaker asks it
 * whether the platform is failing for everyone, not just for one caller.
 */
export interface FaultWindowOptions {
  windowMs: number;
  /**
   * Share of legs with a platform fault (0 to 1, exclusive) that makes the platform failing, once
   * the window is confident of it: the lower bound of the fault share's 95% interval must reach it.
   */
  failureRate: number;
  /** Fewer legs than this in the window never open a breaker: too little traffic to judge. */
  minCalls: number;
  /** Faults must come from at least this many accounts: one account alone never opens a breaker. */
  minAccounts: number;
}

const Z95 = 1.96;

/** The lower bound of the Wilson score interval (95%) of a share observed as `hits` of `n`. */
export function wilsonLowerBound(hits: number, n: number): number {
  if (n === 0) return 0;
  const p = hits / n;
  const z2 = Z95 * Z95;
  const centre = p + z2 / (2 * n);
  const margin = Z95 * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return (centre - margin) / (1 + z2 / n);
}

interface Bucket {
  second: number;
  calls: number;
  faults: number;
  accounts: Set<string>;
}

export class FaultWindow {
  private readonly buckets: Bucket[];

  constructor(
    private readonly options: FaultWindowOptions,
    private readonly nowMs: () => number,
  ) {
    this.buckets = Array.from({ length: Math.max(1, Math.ceil(options.windowMs / 1000)) }, () => ({ second: -1, calls: 0, faults: 0, accounts: new Set<string>() }));
  }

  /** One leg that reached the platform: `fault` when the platform itself failed it. */
  record(account: string, fault: boolean): void {
    const second = Math.floor(this.nowMs() / 1000);
    const bucket = this.buckets[second % this.buckets.length]!;
    if (bucket.second !== second) Object.assign(bucket, { second, calls: 0, faults: 0, accounts: new Set<string>() });
    bucket.calls++;
    if (fault) {
      bucket.faults++;
      bucket.accounts.add(account);
    }
  }

  /**
   * True when the window shows the platform failing: enough legs, enough accounts among the faults,
   * and a fault share that is surely at or above the rate. A raw share opens on the luck of the
   * first legs (at a 30% blocked rate, half of the first 10 to 320 legs are faults at some point in
   * about 1 start in 6); the interval's lower bound (9 of 10, 15 of 20 at a rate of 0.5) in about
   * 1 in 1,000, while a platform failing every leg still opens it at `minCalls`.
   */
  failing(): boolean {
    const { calls, faults, accounts } = this.totals();
    return calls >= this.options.minCalls && accounts >= this.options.minAccounts && wilsonLowerBound(faults, calls) >= this.options.failureRate;
  }

  totals(): { calls: number; faults: number; accounts: number } {
    const oldest = Math.floor(this.nowMs() / 1000) - this.buckets.length + 1;
    let calls = 0;
    let faults = 0;
    const accounts = new Set<string>();
    for (const b of this.buckets) {
      if (b.second < oldest) continue;
      calls += b.calls;
      faults += b.faults;
      for (const a of b.accounts) accounts.add(a);
    }
    return { calls, faults, accounts: accounts.size };
  }

  /** Forgets everything: a probe that got through shows the platform recovered. */
  reset(): void {
    for (const b of this.buckets) Object.assign(b, { second: -1, calls: 0, faults: 0, accounts: new Set<string>() });
  }
}
