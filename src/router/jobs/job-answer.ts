import type { ErrorBody } from '../../domain/errors.js';
import type { Platform } from '../../domain/platforms.js';
import type { JobRecord } from '../../domain/ports/jobs.js';
import type { JobData } from '../schemas/job.schema.js';
import { operationOf, pollAfterSeconds, pollUrl, remainingSeconds } from './jobs.js';

/** The error of a failed job: what the synchronous call would have answered (its stored error body). */
export type JobErrorBody = ErrorBody['error'];

/**
 * The body of `GET /v1/jobs/{id}` for a job as it stands (spec 4.9), built in one place for the
 * poll, a long poll's end and a webhook's delivery. `retryAfter` is set while it is in flight.
 */
export function jobAnswer(found: JobRecord, requestId: string, now: Date) {
  const handle = { jobId: found.id, status: found.status, pollUrl: pollUrl(found.id), operation: operationOf(found.procedure) };
  const platforms = found.platforms as Platform[];
  if (found.status === 'completed' && found.result) {
    const { requestId: _work, ...work } = found.result.meta;
    // The stored result is what the operation's procedure answered, checked by its .output()
    // before it was stored; the poll's .output() checks it against the operation's variant again.
    const data = { ...handle, result: found.result.data } as JobData;
    return { body: { data, meta: { ...work, requestId, creditsCharged: found.creditsCharged, platforms } }, retryAfter: null };
  }
  if (found.status === 'failed') {
    return { body: { data: { ...handle, error: found.error as unknown as JobErrorBody }, meta: { requestId, creditsCharged: 0, platforms } }, retryAfter: null };
  }
  return {
    body: { data: { ...handle, estimatedSeconds: remainingSeconds(found, now) }, meta: { requestId, creditsCharged: 0, platforms } },
    retryAfter: pollAfterSeconds(found, now),
  };
}

export function isFinished(job: JobRecord): boolean {
  return job.status === 'completed' || job.status === 'failed';
}
