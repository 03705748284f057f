import { ApiError } from './errors.js';
import { sleep } from './runtime.js';
import { retryAfterSeconds, send, type TransportOptions } from './transport.js';
import type { Accepted, JobAnswer, WaitOptions } from './types.js';

/** The service holds a long poll for at most 30 s (Prefer: wait=N, N <= 30). */
const LONGEST_WAIT_SECONDS = 30;
const DEFAULT_TIMEOUT_SECONDS = 600;

const isDone = (job: JobAnswer) => job.data.status === 'completed' || job.data.status === 'failed';

/**
 * Polls GET /jobs/{jobId} until the job completes or fails. Each poll asks the service to hold
 * the answer until the job ends (`Prefer: wait`); when the service did not hold it (no
 * Preference-Applied), the next poll waits the Retry-After it sent. Returns the final answer, a
 * failed job included (`data.status` says which; `data.error` says why).
 */
export async function waitForJob(o: TransportOptions, jobId: string, options: WaitOptions = {}): Promise<JobAnswer> {
  const deadline = Date.now() + (options.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS) * 1000;
  for (;;) {
    const left = Math.ceil((deadline - Date.now()) / 1000);
    if (left <= 0) throw new Error(`Job ${jobId} did not end within ${options.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS} s.`);
    const res = await send(o, { path: `/jobs/${encodeURIComponent(jobId)}`, headers: { Prefer: `wait=${Math.min(LONGEST_WAIT_SECONDS, left)}` } });
    const job = res.body as JobAnswer;
    if (isDone(job)) return job;
    if (res.header('preference-applied') === null) await sleep(Math.min(left, retryAfterSeconds(res.header('retry-after')) ?? 1));
  }
}

/** A 202's job handle, told apart from a 200 body (whose data is a list or a resource). */
export function isAccepted(answer: unknown): answer is Accepted {
  const data = (answer as { data?: unknown } | null)?.data;
  return typeof data === 'object' && data !== null && typeof (data as { jobId?: unknown }).jobId === 'string' && !('result' in data);
}

/** A job that failed, as the error its synchronous call would have thrown (status 0: see ApiError). */
export function jobError(job: JobAnswer): ApiError {
  const e = job.data.error;
  return new ApiError({ status: 0, code: e?.code ?? 'job_failed', message: e?.message ?? `Job ${job.data.jobId} failed.`, subCode: e?.subCode, param: e?.param, requestId: e?.requestId ?? job.meta.requestId, retryable: e?.retryable ?? false, docUrl: e?.docUrl });
}
