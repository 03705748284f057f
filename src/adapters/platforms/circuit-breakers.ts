import { BrokenCircuitError, ConsecutiveBreaker, circuitBreaker, handleWhen, type CircuitBreakerPolicy } from 'cockatiel';
import { OPERATIONS, type Platform } from '../../domain/platforms.js';
import { LegFailure, type AdapterSet, type PlatformAdapter } from '../../domain/ports.js';

export interface BreakerOptions {
  /** Consecutive failed, blocked or timed-out legs that open a platform's breaker. */
  failures: number;
  /** How long an open breaker fails legs at once before letting one through to test the platform. */
  halfOpenAfterMs: number;
}

/**
 * One circuit breaker per platform (cockatiel): after `failures` failed legs in a row, that
 * platform's legs fail at once, for free, instead of waiting out their deadlines; after
 * `halfOpenAfterMs` one call is let through and its outcome closes or reopens the breaker.
 * "Not found" (null) is an answer, not a failure.
 */
export function withCircuitBreakers(set: AdapterSet, platforms: readonly Platform[], options: BreakerOptions): AdapterSet {
  const wrapped = new Map<Platform, PlatformAdapter>();
  for (const platform of platforms) {
    const inner = set.get(platform);
    if (!inner) continue;
    const breaker = circuitBreaker(handleWhen((err) => err instanceof LegFailure && err.platformFault), {
      halfOpenAfter: options.halfOpenAfterMs,
      breaker: new ConsecutiveBreaker(options.failures),
    });
    wrapped.set(platform, guard(inner, breaker));
  }
  return { get: (p) => wrapped.get(p) ?? set.get(p), supporting: (op) => set.supporting(op) };
}

function guard(inner: PlatformAdapter, breaker: CircuitBreakerPolicy): PlatformAdapter {
  const adapter: PlatformAdapter = { platform: inner.platform, operations: inner.operations };
  if (inner.expectedMs) adapter.expectedMs = (op, req) => inner.expectedMs!(op, req);
  for (const op of OPERATIONS) {
    const method = inner[op] as ((req: unknown, signal: AbortSignal) => Promise<unknown>) | undefined;
    if (!method) continue;
    (adapter as unknown as Record<string, unknown>)[op] = async (req: unknown, signal: AbortSignal) => {
      try {
        return await breaker.execute(() => method.call(inner, req, signal));
      } catch (err) {
        if (err instanceof BrokenCircuitError) throw new LegFailure('failed', `${inner.platform} is failing; its circuit breaker is open, so the leg was not attempted`, { error: 'circuit_open' });
        throw err;
      }
    };
  }
  return adapter;
}
