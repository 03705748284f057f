import type { LegStatus, Warning } from './model/common.js';
import type { Platform } from './platforms.js';
import { LegFailure } from './ports.js';
import type { Cache } from './service-ports.js';
import type { CacheSlot } from './cache-policy.js';

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
  /** Where this leg's answer is cached; absent for legs that are never cached. */
  cache?: CacheSlot;
}

/** A leg answer read from cache, or null on a miss (or an unreadable entry). */
async function fromCache<T>(cache: Cache, slot: CacheSlot): Promise<T | null> {
  const hit = await cache.get(slot.key);
  if (hit === null) return null;
  try {
    return JSON.parse(hit) as T;
  } catch {
    return null;
  }
}

/** What legs run with: their deadline, the cache, and an observer for metrics. */
export interface LegRuntime {
  legDeadlineMs: number;
  cache?: Cache;
  observeLeg?(platform: Platform, status: LegStatus, cached: boolean, ms: number): void;
}

/**
 * Runs one leg under its own deadline. It never rejects: a thrown LegFailure keeps its status,
 * a deadline becomes `timeout`, anything else `failed`, each with a warning naming the platform.
 */
export async function runLeg<T>(spec: LegSpec<T>, runtime: LegRuntime): Promise<LegOutcome<T>> {
  const started = performance.now();
  const outcome = await settleLeg(spec, runtime);
  runtime.observeLeg?.(outcome.platform, outcome.status, outcome.cached, performance.now() - started);
  return outcome;
}

async function settleLeg<T>(spec: LegSpec<T>, { legDeadlineMs: deadlineMs, cache }: LegRuntime): Promise<LegOutcome<T>> {
  if (cache && spec.cache) {
    const hit = await fromCache<T>(cache, spec.cache);
    if (hit !== null) {
      const count = spec.count(hit);
      return { platform: spec.platform, status: count > 0 ? 'ok' : 'empty', value: hit, count, cached: true, warnings: [] };
    }
  }
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
    clearTimeout(timer);
    const count = spec.count(value);
    // Answers are cached, failures and "not found" (null) are not: the next call asks again.
    if (cache && spec.cache && value !== null) await cache.set(spec.cache.key, JSON.stringify(value), spec.cache.ttlMs);
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
export function runLegs<T>(specs: LegSpec<T>[], runtime: LegRuntime): Promise<LegOutcome<T>[]> {
  return Promise.all(specs.map((s) => runLeg(s, runtime)));
}

export function isFailed(status: LegStatus): boolean {
  return status === 'failed' || status === 'blocked' || status === 'timeout';
}
