import { createHash } from 'node:crypto';
import { stableJson } from '../../domain/operations/cursor.js';
import type { JobRecord } from '../../domain/ports/jobs.js';
import type { KeyEnv } from '../../domain/accounts/plans.js';
import { OPERATIONS, type Operation } from '../../domain/platforms.js';

/** Procedures that are another transport form of an operation (POST /v1/search is searchByBody). */
const OPERATION_OF_FORM: Record<string, Operation> = { searchByBody: 'search' };

/** The operation a job runs, from the procedure it was accepted by; its poll answer is typed by it. */
export function operationOf(procedure: string): Operation {
  const operation = OPERATION_OF_FORM[procedure] ?? procedure;
  if (!(OPERATIONS as readonly string[]).includes(operation)) throw new Error(`job of unknown procedure ${procedure}`);
  return operation as Operation;
}

/** Jobs are kept 24 h, then answer 404 job_not_found and are deleted (design.md section 3). */
export const JOB_RETENTION_MS = 24 * 60 * 60_000;

/** A job id as this service makes them; anything else is an unknown job, answered without asking the database. */
export const JOB_ID = /^job_[0-9A-HJKMNP-TV-Z]{26}$/;

/** Identical calls of one account (same operation, key kind and normalised input) share a job. */
export function jobDedupKey(procedure: string, env: KeyEnv, input: unknown): string {
  return createHash('sha256').update(stableJson({ procedure, env, input })).digest('base64url');
}

/** Seconds the job is still expected to take, never less than 1 while it is in flight. */
export function remainingSeconds(job: JobRecord, now: Date): number {
  const elapsed = (now.getTime() - (job.startedAt ?? job.createdAt).getTime()) / 1000;
  return Math.max(1, Math.ceil(job.estimatedSeconds - Math.max(0, elapsed)));
}

/** When to poll again: a fraction of what remains, between 1 and 10 s. */
export function pollAfterSeconds(job: JobRecord, now: Date): number {
  return Math.min(10, Math.max(1, Math.ceil(remainingSeconds(job, now) / 4)));
}

export function pollUrl(jobId: string): string {
  return `/v1/jobs/${jobId}`;
}
