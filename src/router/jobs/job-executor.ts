import type { Deps } from '../../deps.js';
import { ServiceError, errorBody } from '../../domain/errors.js';
import { appRouter } from '../app-router.js';
import { createContext } from '../context.js';
import { toServiceError } from '../errors.js';
import type { SettledLeg } from '../../domain/operations/fan-out.js';
import type { JobLegEvent, QueueEntry } from '../../domain/ports/jobs.js';

type Envelope = { data: unknown; meta: Record<string, unknown> };
type Caller = Record<string, (input: unknown) => Promise<Envelope>>;

/**
 * Announces each leg of a job as it settles (issue 16: MCP progress per leg), one after the other,
 * each from the next turn of the event loop on: legs still unsent when the procedure returns (its
 * last one, often) are `take`n into the job's completion, which announces them before the job's
 * end in its own statement, instead of a round trip of their own before it. Whatever the
 * completion does not announce is sent (`flush`) before the job ends otherwise (NOTIFYs arrive in
 * commit order, so a listener hears every leg before the end).
 */
function legAnnouncer(deps: Deps, jobId: string) {
  let done = 0;
  let taken = false;
  const unsent: JobLegEvent[] = [];
  // Legs announced while the job runs go one after the other, through this chain.
  let chain = Promise.resolve();
  return {
    onLeg(leg: SettledLeg): void {
      unsent.push({ platform: leg.platform, status: leg.status, cached: leg.cached, count: leg.count, done: ++done, of: leg.of });
      chain = chain
        .then(() => new Promise<void>((resolve) => setImmediate(resolve)))
        .then(() => (taken ? undefined : publishLegs(deps, jobId, unsent.splice(0, 1))));
    },
    /** The legs not sent yet, once those being sent are; from now on none is sent on its own. */
    async take(): Promise<JobLegEvent[]> {
      taken = true;
      await chain;
      return [...unsent];
    },
    /** The completion announced what `take` returned. */
    told(): void {
      unsent.length = 0;
    },
    /** Sends whatever is still unsent (the job ends some other way). */
    async flush(): Promise<void> {
      taken = true;
      await chain;
      await publishLegs(deps, jobId, unsent.splice(0));
    },
  };
}

/** Module-level: under tsx an arrow named inside a call is renamed on every call (README, "Performance"). */
async function publishLegs(deps: Deps, jobId: string, legs: JobLegEvent[]): Promise<void> {
  for (const leg of legs) await deps.jobEvents.publishLeg(jobId, leg);
}

/**
 * Runs one accepted job through the same procedure the synchronous call uses (so validation,
 * platforms, cache and pricing are identical), then stores the result and posts the `job:<id>`
 * charge in one transaction. A job that is already completed or failed is left alone, so a re-run
 * after a crash is billed at most once. Retryable failures are thrown back to the queue until the
 * last attempt; then, or for any other failure, the job fails at 0 credits with the error.
 * True when the job completed and its `queueEntry` went with the completion (the queue has no
 * entry left to remove).
 */
export async function executeJob(deps: Deps, jobId: string, attempt: number, maxAttempts: number, keyId?: string, queueEntry?: QueueEntry): Promise<boolean> {
  // The key the queue entry names is looked up while the job is marked running: one round trip of
  // waiting instead of two (issue 29). It is used only when it is the key the job row names.
  const early = keyId ? deps.keys.findRecentById(keyId) : null;
  early?.catch(() => {}); // awaited below unless the job is already done
  const job = await deps.jobs.start(jobId, deps.clock.now());
  if (!job) return false;
  const principal = early && keyId === job.keyId ? await early : await deps.keys.findRecentById(job.keyId);
  const legs = legAnnouncer(deps, jobId);
  const ctx = { ...createContext(deps, { transport: 'worker', authorization: null, clientAddress: 'worker' }), jobId, onLeg: legs.onLeg, ...(principal ? { principal } : {}) };
  try {
    if (!principal) throw new ServiceError('internal_error', 'The key that started this job no longer exists.');
    const caller = appRouter.createCaller(ctx) as unknown as Caller;
    const result = await caller[job.procedure]!(job.input);
    const credits = ctx.res.creditsCharged ?? 0;
    const outcome = await deps.jobs.complete(job, { credits, result, billed: ctx.res.billed, now: deps.clock.now(), legs: await legs.take(), ...(queueEntry ? { queueEntry } : {}) });
    if (outcome === 'completed') {
      legs.told();
      return queueEntry !== undefined;
    }
    await legs.flush();
    if (outcome === 'unaffordable') {
      const refused = new ServiceError('credit_balance_too_low', `This job's result costs ${credits} credits; the balance is lower now. Nothing was charged.`);
      await deps.jobs.fail(jobId, errorBody(refused, ctx.requestId, deps.config.publicUrl).error as unknown as Record<string, unknown>, deps.clock.now());
    }
    return false;
  } catch (err) {
    await legs.flush();
    const failure = toServiceError(err);
    const error = errorBody(failure, ctx.requestId, deps.config.publicUrl).error as unknown as Record<string, unknown>;
    if (failure.retryable && attempt < maxAttempts) {
      // Kept in case the remaining attempts are lost to crashes: the job then ends with this error.
      await deps.jobs.noteFailure(jobId, error).catch(() => {});
      throw err;
    }
    await deps.jobs.fail(jobId, error, deps.clock.now());
    return false;
  }
}

/**
 * Ends jobs whose queue entries graphile-worker will not run again (every attempt spent, the last
 * ones by crashed workers): failed at 0 credits with the last retryable error an attempt met, or
 * an internal error when every attempt crashed.
 */
export async function abandonJobs(deps: Deps, jobIds: string[]): Promise<void> {
  const now = deps.clock.now();
  const crashed = new ServiceError('internal_error', 'The job stopped on every attempt before it could finish. Nothing was charged; send the call again.');
  for (const jobId of jobIds) {
    const fallback = errorBody(crashed, deps.ids.requestId(), deps.config.publicUrl).error as unknown as Record<string, unknown>;
    if (await deps.jobs.abandon(jobId, fallback, now)) deps.log.warn({ jobId }, 'job failed: its attempts were spent by workers that stopped');
  }
}
