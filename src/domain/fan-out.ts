import type { LegStatus, Warning } from './model/common.js';
import type { Platform } from './platforms.js';
import { LegFailure } from './ports.js';

export interface LegOutcome<T> {
  platform: Platform;
  status: LegStatus;
  /** Set when the leg produced a value (status ok or empty). */
  value: T | undefined;
  /** Items counted for platformResults and billing. */
  count: number;
  cached: boolean;
  warnings: Warning[];
}

export interface LegSpec<T> {
  platform: Platform;
  run(signal: AbortSignal): Promise<T>;
  /** Items in a value; 0 makes the leg `empty`. */
  count(value: T): number;
}

/**
 * Runs one leg under its own deadline. It never rejects: a thrown LegFailure keeps its status,
 * a deadline becomes `timeout`, anything else `failed`, each with a warning naming the platform.
 */
export async function runLeg<T>(spec: LegSpec<T>, deadlineMs: number): Promise<LegOutcome<T>> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const failure = new LegFailure('timeout', `${spec.platform} did not answer within ${deadlineMs} ms`);
      controller.abort(failure);
      reject(failure);
    }, deadlineMs);
  });
  try {
    const value = await Promise.race([spec.run(controller.signal), deadline]);
    const count = spec.count(value);
    return { platform: spec.platform, status: count > 0 ? 'ok' : 'empty', value, count, cached: false, warnings: [] };
  } catch (err) {
    const failure = err instanceof LegFailure ? err : new LegFailure('failed', `${spec.platform} failed`);
    return {
      platform: spec.platform,
      status: failure.status,
      value: undefined,
      count: 0,
      cached: false,
      warnings: [{ code: `leg_${failure.status}`, message: failure.message, platform: spec.platform }],
    };
  } finally {
    clearTimeout(timer);
  }
}

/** Runs legs concurrently; they settle independently, so the call takes as long as the slowest leg. */
export function runLegs<T>(specs: LegSpec<T>[], deadlineMs: number): Promise<LegOutcome<T>[]> {
  return Promise.all(specs.map((s) => runLeg(s, deadlineMs)));
}

export function isFailed(status: LegStatus): boolean {
  return status === 'failed' || status === 'blocked' || status === 'timeout';
}
