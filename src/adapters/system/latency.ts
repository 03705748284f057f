import type { LegStatus } from '../../domain/model/common.js';
import type { Operation, Platform } from '../../domain/platforms.js';

/**
 * Recent upstream latency per platform and operation (an exponentially weighted mean), the
 * default projection of how long a leg will take (spec 4.9). Fast failures say nothing about how
 * long an answer takes, so only answers and timeouts count.
 */
export function createLatencyTracker(weight = 0.2) {
  const means = new Map<string, number>();
  return {
    observe(platform: Platform, operation: Operation, status: LegStatus, ms: number): void {
      if (status === 'failed' || status === 'blocked') return;
      const key = `${platform}:${operation}`;
      const prev = means.get(key);
      means.set(key, prev === undefined ? ms : prev + weight * (ms - prev));
    },
    expectedMs(platform: Platform, operation: Operation): number {
      return means.get(`${platform}:${operation}`) ?? 0;
    },
  };
}
export type LatencyTracker = ReturnType<typeof createLatencyTracker>;
