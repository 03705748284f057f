import { BrokenCircuitError, CircuitState, circuitBreaker, handleWhen, type CircuitBreakerPolicy, type IBreaker } from 'cockatiel';
import type { Platform } from '../../domain/platforms.js';
import { LegAbandoned, LegFailure } from '../../domain/ports/platform.js';
import { FaultWindow, type FaultWindowOptions } from './fault-window.js';

export interface BreakerOptions extends FaultWindowOptions {
  /** How long an open breaker fails legs at once before letting one through to test the platform. */
  halfOpenAfterMs: number;
}

/** Told when a platform's breaker opens or closes, with the window's figures at that moment. */
export type BreakerObserver = (platform: Platform, state: 'open' | 'closed', window: { calls: number; faults: number; accounts: number }) => void;

/** Runs live legs through their platform's breaker, on behalf of an account. */
export interface PlatformBreakers {
  run<T>(platform: Platform, accountId: string, leg: () => Promise<T>): Promise<T>;
  /** What a leg would meet now, without running one (issue 16: the free estimate reports it). */
  state(platform: Platform): BreakerState;
  /** The figures the platform is judged by now: legs that reached it, faults, accounts among the faults. */
  window(platform: Platform): { calls: number; faults: number; accounts: number };
}

export type BreakerState = 'closed' | 'open' | 'half_open';

/** Only faults of the platform itself count: network errors, timeouts, 5xx, blocked answers. */
const isPlatformFault = (err: unknown): boolean => err instanceof LegFailure && err.platformFault;

/**
 * What cockatiel hands to the breaker: platform faults, and legs we abandoned (issue 35). The
 * latter never enter the window, which alone decides whether a closed breaker opens; but a probe
 * we abandoned proved nothing, and must not close an open one as cockatiel does with errors it
 * does not handle.
 */
const isFaultOrUnproven = (err: unknown): boolean => isPlatformFault(err) || err instanceof LegAbandoned;

/**
 * cockatiel's breaker asks this one whether to open. The decision rests on the fault window, which
 * `run` fills with each leg's account and outcome before cockatiel sees it, so concurrent legs
 * cannot be mistaken for one another.
 */
class WindowBreaker implements IBreaker {
  constructor(readonly window: FaultWindow) {}
  get state(): unknown {
    return null;
  }
  set state(_: unknown) {}
  success(state: CircuitState): void {
    if (state === CircuitState.HalfOpen) this.window.reset();
  }
  failure(state: CircuitState): boolean {
    // A failed or abandoned probe reopens at once; a closed breaker opens only on the window's evidence.
    return state !== CircuitState.Closed || this.window.failing();
  }
}

/**
 * One circuit breaker per live platform (cockatiel), shared by every account. It opens when, over
 * a sliding window, enough legs ran, at least `failureRate` of them met a platform fault, and those
 * faults came from at least `minAccounts` accounts, so no single account's traffic can switch a
 * platform off for the others, and a platform answering most calls stays in use. Open, it fails
 * legs at once and for free (`circuit_open`); after `halfOpenAfterMs` one leg goes through as a
 * probe (the others wait for it) and its outcome closes or reopens the breaker. "Not found" and
 * answers the parser cannot read are answers, not faults: they never count. Legs we abandoned
 * (our deadline, in the queue or with the request in flight) are not the
 * platform's doing: they never count either, and a probe we abandoned keeps the breaker open.
 */
export function createPlatformBreakers(options: BreakerOptions, nowMs: () => number, onChange?: BreakerObserver): PlatformBreakers {
  const breakers = new Map<Platform, { policy: CircuitBreakerPolicy; window: FaultWindow }>();
  const breakerOf = (platform: Platform) => {
    let entry = breakers.get(platform);
    if (!entry) {
      const window = new FaultWindow(options, nowMs);
      const policy = circuitBreaker(handleWhen(isFaultOrUnproven), { halfOpenAfter: options.halfOpenAfterMs, breaker: new WindowBreaker(window) });
      // Told before the window is cleared, so the evidence that opened it is still there.
      policy.onBreak(() => onChange?.(platform, 'open', window.totals()));
      policy.onReset(() => onChange?.(platform, 'closed', window.totals()));
      entry = { policy, window };
      breakers.set(platform, entry);
    }
    return entry;
  };

  return {
    state(platform) {
      const state = breakers.get(platform)?.policy.state;
      // Isolated (manual) counts as open: legs fail at once either way.
      return state === CircuitState.Open || state === CircuitState.Isolated ? 'open' : state === CircuitState.HalfOpen ? 'half_open' : 'closed';
    },
    window(platform) {
      return breakers.get(platform)?.window.totals() ?? { calls: 0, faults: 0, accounts: 0 };
    },
    async run(platform, accountId, leg) {
      const { policy, window } = breakerOf(platform);
      try {
        return await policy.execute(async () => {
          try {
            const value = await leg();
            window.record(accountId, false);
            return value;
          } catch (err) {
            // Answers the service could not use (unreadable, for another listing) and legs we
            // abandoned (our deadline) are neither faults nor proof of health: they stay
            // out of the window.
            if (isPlatformFault(err)) window.record(accountId, true);
            throw err;
          }
        });
      } catch (err) {
        if (err instanceof BrokenCircuitError) {
          throw new LegFailure('failed', `${platform} is failing for many callers; its circuit breaker is open, so the leg was not attempted`, { error: 'circuit_open' });
        }
        throw err;
      }
    },
  };
}
