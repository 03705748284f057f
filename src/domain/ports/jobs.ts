import type { KeyEnv } from '../accounts/plans.js';
import type { LegStatus } from '../model/common.js';
import type { Platform } from '../platforms.js';

/** A job as the service sees it (spec 2.9); `result` is the envelope the synchronous call returns. */
export interface JobRecord {
  id: string;
  accountId: string;
  keyId: string;
  keyEnv: KeyEnv;
  procedure: string;
  input: unknown;
  platforms: string[];
  status: 'pending' | 'running' | 'completed' | 'failed';
  estimatedSeconds: number;
  result: { data: unknown; meta: Record<string, unknown> } | null;
  creditsCharged: number;
  error: Record<string, unknown> | null;
  createdAt: Date;
  startedAt: Date | null;
  /** When it completed or failed; null while in flight. */
  finishedAt: Date | null;
  expiresAt: Date;
}

/** What accepting a call as a job records; the rest of a JobRecord starts empty. */
export type NewJob = Pick<JobRecord, 'id' | 'accountId' | 'keyId' | 'keyEnv' | 'procedure' | 'input' | 'platforms' | 'estimatedSeconds' | 'expiresAt'> & {
  /** Identical in-flight calls of one account share the job with this key. */
  dedupKey: string;
  now: Date;
  /**
   * The credits the job holds against the balance from now until it ends (issue 23): its largest
   * possible cost, or null when it costs nothing. Taken with the job, or the job is not made.
   */
  hold: { credits: number; ttlMs: number } | null;
};

/**
 * The queue's entry a worker holds while it runs a job (its id, and the worker holding it). Given
 * to `complete`, it is removed, and its named queue unlocked, in the completion's own statement,
 * and only when the job completed: the account's next job can start one round trip sooner.
 */
export interface QueueEntry {
  id: string;
  lockedBy: string;
}

/** Async jobs (spec 4.9): the row and the queue entry are written in one transaction. */
export interface JobStore {
  /**
   * Enqueues with its hold, or returns the account's in-flight job for the same call (`created`
   * false, no hold taken), or 'unaffordable' when the balance not already held by the account's
   * calls and jobs does not cover the hold (nothing written).
   */
  enqueue(job: NewJob): Promise<{ job: JobRecord; created: boolean } | 'unaffordable'>;
  /**
   * The owner's job, unless unknown, another account's, made with the other key kind (a sandbox
   * key never reads live results, nor the reverse), or expired at `now`.
   */
  find(id: string, owner: { accountId: string; keyEnv: KeyEnv }, now: Date): Promise<JobRecord | null>;
  /** Marks a job running; null when it is already completed or failed (nothing to do). */
  start(id: string, now: Date): Promise<JobRecord | null>;
  /**
   * Result and the `job:<id>` ledger row in one transaction: a re-run is billed at most once. `job`
   * is the job as `start` returned it (its account is charged, and must still own it). `legs`, the
   * run's legs not announced yet, are announced by the same statement, before the job's end, only
   * when it completes the job: otherwise the caller still has them to announce.
   */
  complete(job: Pick<JobRecord, 'id' | 'accountId' | 'keyId' | 'procedure'>, outcome: { credits: number; result: { data: unknown; meta: Record<string, unknown> }; billed?: { operation: string; platforms: { platform: string; credits: number }[]; status: 'complete' | 'partial' }; now: Date; queueEntry?: QueueEntry; legs?: JobLegEvent[] }): Promise<'completed' | 'unaffordable' | 'already_done'>;
  fail(id: string, error: Record<string, unknown>, now: Date): Promise<void>;
  /** Keeps an attempt's retryable error on a job still in flight: the error it ends with if the queue gives up. */
  noteFailure(id: string, error: Record<string, unknown>): Promise<void>;
  /** Fails a job the queue gave up on (attempts spent by crashes): its last noted error, else `fallback`; 0 credits. */
  abandon(id: string, fallback: Record<string, unknown>, now: Date): Promise<boolean>;
  /** Deletes jobs past their retention; returns how many. */
  deleteExpired(now: Date): Promise<number>;
}

/** A platform leg a job's worker finished: `done` legs of this run so far, this one included, of `of` in its fan-out. */
export interface JobLegEvent {
  platform: Platform;
  status: LegStatus;
  cached: boolean;
  count: number;
  done: number;
  of: number;
}

/** Wakes long polls when a job ends, in whichever process ended it, and tells them of each leg it finishes. */
export interface JobEvents {
  /**
   * Resolves once listening; then `done(ms)` resolves true when the job ended, false on timeout.
   * `onLeg` hears the job's legs that finish while listening (not earlier ones: `done` counts them).
   */
  listen(jobId: string, onLeg?: (leg: JobLegEvent) => void): Promise<{ done(timeoutMs: number): Promise<boolean>; cancel(): void }>;
  /** Announces a finished leg of a running job to every process; best effort, never throws. */
  publishLeg(jobId: string, leg: JobLegEvent): Promise<void>;
  close(): Promise<void>;
}
