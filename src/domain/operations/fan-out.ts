import type { LegStatus, Warning } from '../model/common.js';
import type { Operation, Platform } from '../platforms.js';
import { LegAbandoned, LegFailure, UpstreamFormatError } from '../ports/platform.js';
import type { LegError } from '../model/common.js';
import type { Cache } from '../ports/caching.js';
import type { CacheSlot } from '../caching/cache-policy.js';
import type { ParsedMemo } from '../caching/parsed-memo.js';

export interface LegOutcome<T> {
  platform: Platform;
  status: LegStatus;
  /** Set when the leg produced a value (status ok or empty). */
  value: T | undefined;
  /** Items counted for platformResults and billing. */
  count: number;
  cached: boolean;
  warnings: Warning[];
  /** Why the leg failed (platformResults[].error); absent when it did not. */
  error?: LegError;
}

export interface LegSpec<T> {
  platform: Platform;
  operation: Operation;
  run(signal: AbortSignal): Promise<T>;
  /** Items in a value; 0 makes the leg `empty`. */
  count(value: T): number;
  /** Where this leg's answer is cached; absent for legs that are never cached. */
  cache?: CacheSlot;
  /** The adapter's own estimate of this call's duration, when it has one. */
  expectedMs?: number | undefined;
  /** What the leg takes once run as a job, when it differs from the projection; the job's estimate. */
  runMs?: number | undefined;
}

/** A leg as it settles, for progress (issue 16): `of` is how many legs its call runs. */
export interface SettledLeg {
  platform: Platform;
  status: LegStatus;
  cached: boolean;
  count: number;
  of: number;
}

/** What legs run with: their deadline, the cache, the async projection and an observer. */
export interface LegRuntime {
  legDeadlineMs: number;
  cache?: Cache;
  /** Parsed values of recent cache hits, shared by the requests of this process; absent: parse every hit. */
  parsed?: ParsedMemo;
  /** Calls whose uncached legs are projected to take longer answer 202 (spec 4.9); absent: never. */
  asyncThresholdMs?: number;
  /** The caller asked for a job whatever the projection (an MCP task): even a cached call goes async. */
  alwaysAsync?: boolean;
  /** Recent latency of a platform and operation, for legs without their own estimate. */
  expectedMs?(platform: Platform, operation: Operation): number;
  observeLeg?(platform: Platform, operation: Operation, status: LegStatus, cached: boolean, ms: number): void;
  /** Told as each leg settles, in order of completion, so a caller can report progress; absent: nobody listens. */
  legSettled?(leg: SettledLeg): void;
  /**
   * Runs an uncached leg's upstream call in the caller's fair share of the platform's connections
   * and through its circuit breaker; `signal` is the leg's deadline, which may pass while the leg
   * still waits for a slot. The deadline itself is raced outside, so the breaker hears how the
   * call ended, never the deadline. Absent: legs run unguarded (sandbox).
   */
  guard?<T>(platform: Platform, leg: () => Promise<T>, signal: AbortSignal): Promise<T>;
  /**
   * A dry run (issue 16): told which legs are cached once the cache was read, before any upstream
   * work or async projection; it ends the call by throwing. Absent: legs run.
   */
  preview?(legs: { platform: Platform; cachedCount: number | null }[]): void;
  /**
   * Called once, when the cache was read and the call stays inline, before the first uncached leg
   * is sent: may refuse the call (the credit hold's 402). Absent, or no uncached leg: not called.
   */
  beforeFetch?(): Promise<void>;
  /** An answer the adapter could not read: `reason` is the parser's, for operators only. */
  observeFormatError?(platform: Platform, operation: Operation, reason: string): void;
}

/**
 * Thrown before any upstream work when the call should continue as a job. A signal, not a fault:
 * it carries no stack (tRPC reads the stack of every error it wraps, and building one per 202
 * was a tenth of a 202's CPU in a burst, more with source maps).
 */
export class AsyncRequired extends Error {
  constructor(
    readonly projectedMs: number,
    readonly platforms: Platform[],
    /** What the job is expected to take: the projection, unless the legs know better. */
    readonly estimatedMs: number = projectedMs,
  ) {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(`projected to take ${projectedMs} ms`);
    Error.stackTraceLimit = limit;
    this.name = 'AsyncRequired';
  }
}

async function fromCache<T>(cache: Cache, slot: CacheSlot, parsed: ParsedMemo | undefined): Promise<T | null> {
  const hit = await cache.get(slot.key);
  if (hit === null) return null;
  try {
    return parsed ? parsed.parse<T>(slot.key, hit) : (JSON.parse(hit) as T);
  } catch {
    return null;
  }
}

function outcome<T>(spec: LegSpec<T>, value: T, cached: boolean): LegOutcome<T> {
  const count = spec.count(value);
  return { platform: spec.platform, status: count > 0 ? 'ok' : 'empty', value, count, cached, warnings: [] };
}

/**
 * A failure as the leg reports it. Anything an adapter throws that is not a LegFailure comes from
 * reading the answer (its client turns every transport error into one): a parser that met a shape
 * it does not know, so a format error carrying the parser's own message.
 */
function asLegFailure(err: unknown): LegFailure {
  if (err instanceof LegFailure) return err;
  const reason = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  return new UpstreamFormatError(reason.slice(0, 500));
}

function failedLeg<T>(platform: Platform, failure: LegFailure, message: string): LegOutcome<T> {
  const warnings = [{ code: `leg_${failure.status}`, message, platform }];
  return { platform, status: failure.status, value: undefined, count: 0, cached: false, warnings, error: failure.error };
}

/**
 * Runs one uncached leg under its own deadline. It never rejects: a thrown LegFailure keeps its
 * status, a deadline becomes `timeout`, anything else a format error (`failed`), each with a warning naming the platform.
 */
async function fetchLeg<T>(spec: LegSpec<T>, runtime: LegRuntime): Promise<LegOutcome<T>> {
  const { legDeadlineMs, cache } = runtime;
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      // Our deadline, not the platform's fault: the request may not even have been sent yet.
      const failure = new LegAbandoned(`${spec.platform} did not answer within ${legDeadlineMs} ms`);
      controller.abort(failure);
      reject(failure);
    }, legDeadlineMs);
  });
  const run = () => spec.run(controller.signal);
  try {
    // The deadline races the guard from outside: the caller gets its timeout at once, while the
    // breaker waits for what the request itself ended in (issue 35: a deadline raced inside the
    // breaker made every leg that passed it there, sent or not, a platform fault).
    const value = await Promise.race([runtime.guard ? runtime.guard(spec.platform, run, controller.signal) : run(), deadline]);
    clearTimeout(timer);
    // Answers are cached, failures and "not found" (null) are not: the next call asks again.
    if (cache && spec.cache && value !== null) await cache.set(spec.cache.key, JSON.stringify(value), spec.cache.ttlMs);
    return outcome(spec, value, false);
  } catch (err) {
    const failure = asLegFailure(err);
    if (failure instanceof UpstreamFormatError) {
      runtime.observeFormatError?.(spec.platform, spec.operation, failure.message);
      // The parser's reason stays in the log: the client learns only that the format changed.
      const message = `${spec.platform} answered in a format the service cannot read; it was reported and is not worth retrying until the service is updated.`;
      return failedLeg(spec.platform, failure, message);
    }
    return failedLeg(spec.platform, failure, failure.message);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Runs legs concurrently; they settle independently, so the call takes as long as the slowest
 * leg. Cached legs are read first: a fully cached call never goes async, and a call whose
 * uncached legs are projected past the threshold throws AsyncRequired before any upstream work.
 */
export async function runLegs<T>(specs: LegSpec<T>[], runtime: LegRuntime): Promise<LegOutcome<T>[]> {
  const { cache } = runtime;
  const hits = await Promise.all(specs.map((s) => (cache && s.cache ? fromCache<T>(cache, s.cache, runtime.parsed) : null)));
  runtime.preview?.(specs.map((s, i) => ({ platform: s.platform, cachedCount: hits[i] !== null && hits[i] !== undefined ? s.count(hits[i]) : null })));
  const misses = specs.filter((_, i) => hits[i] === null);
  if ((misses.length > 0 && runtime.asyncThresholdMs !== undefined) || runtime.alwaysAsync) {
    const projections = misses.map((s) => s.expectedMs ?? runtime.expectedMs?.(s.platform, s.operation) ?? 0);
    const projected = Math.max(0, ...projections);
    const estimated = Math.max(0, ...misses.map((s, i) => s.runMs ?? projections[i]!));
    if (runtime.alwaysAsync || projected > runtime.asyncThresholdMs!) throw new AsyncRequired(projected, [...new Set(specs.map((s) => s.platform))], estimated);
  }
  if (misses.length > 0) await runtime.beforeFetch?.();
  return Promise.all(
    specs.map(async (spec, i) => {
      const hit = hits[i];
      const started = performance.now();
      const result = hit !== null && hit !== undefined ? outcome(spec, hit, true) : await fetchLeg(spec, runtime);
      runtime.observeLeg?.(spec.platform, spec.operation, result.status, result.cached, performance.now() - started);
      runtime.legSettled?.({ platform: spec.platform, status: result.status, cached: result.cached, count: result.count, of: specs.length });
      return result;
    }),
  );
}

export async function runLeg<T>(spec: LegSpec<T>, runtime: LegRuntime): Promise<LegOutcome<T>> {
  return (await runLegs([spec], runtime))[0]!;
}

export function isFailed(status: LegStatus): boolean {
  return status === 'failed' || status === 'blocked' || status === 'timeout';
}
