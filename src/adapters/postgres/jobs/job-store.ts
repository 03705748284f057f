import { and, eq, gt, inArray, lte, sql, type SQL } from 'drizzle-orm';
import type { JobRecord, JobStore, NewJob } from '../../../domain/ports/jobs.js';
import type { LedgerEntry } from '../../../domain/ports/billing.js';
import type { Db } from '../db.js';
import { postFencedEntryAlong, type Tx } from '../billing/ledger.js';
import { asyncJobs, creditHolds } from '../schema.js';
import { TASKS, type TaskPayload } from '../../jobs/tasks.js';
import { dequeueAlong } from '../../jobs/queue-entry.js';
import { legNotices } from './job-events.js';
import { Failed, batcher } from './batcher.js';

type Row = typeof asyncJobs.$inferSelect;
const IN_FLIGHT = ['pending', 'running'];

function toRecord(row: Row): JobRecord {
  return {
    id: row.id,
    accountId: row.accountId,
    keyId: row.keyId,
    keyEnv: row.keyEnv === 'live' ? 'live' : 'sandbox',
    procedure: row.procedure,
    input: row.input,
    platforms: row.platforms,
    status: row.status as JobRecord['status'],
    estimatedSeconds: row.estimatedSeconds,
    result: row.result as JobRecord['result'],
    creditsCharged: row.creditsCharged,
    error: row.error as JobRecord['error'],
    createdAt: row.createdAt,
    startedAt: row.startedAt,
    finishedAt: row.finishedAt,
    expiresAt: row.expiresAt,
  };
}

type EnqueueOutcome = 'created' | 'duplicate' | 'unaffordable';
/** Jobs per enqueue_jobs call, and such calls at once (each holds one connection of the pool). */
const ENQUEUE_BATCH = 50;
const ENQUEUE_BATCHES_IN_FLIGHT = 2;

/** An integrity or data error (SQLSTATE classes 23 and 22): one row's fault, not the database's. */
function isDataError(err: unknown): boolean {
  const code = (err as { code?: string; cause?: { code?: string } }).cause?.code ?? (err as { code?: string }).code ?? '';
  return code.startsWith('23') || code.startsWith('22');
}

/** One job as enqueue_jobs reads it. */
export function enqueueArgument(job: NewJob) {
  const payload: TaskPayload<typeof TASKS.runOperation> = { jobId: job.id, keyId: job.keyId };
  return {
    id: job.id, account_id: job.accountId, key_id: job.keyId, key_env: job.keyEnv, procedure: job.procedure, input: job.input ?? null,
    dedup_key: job.dedupKey, platforms: job.platforms, estimated_seconds: job.estimatedSeconds, created_at: job.now.toISOString(),
    expires_at: job.expiresAt.toISOString(), hold: job.hold?.credits ?? 0, hold_ttl_ms: Math.round(job.hold?.ttlMs ?? 0), payload,
  };
}

/** Ends a job's credit hold (issue 23) once the job can no longer charge. */
async function releaseJobHold(db: Db | Tx, id: string): Promise<void> {
  await db.delete(creditHolds).where(eq(creditHolds.id, `job:${id}`));
}

/**
 * Job rows in PostgreSQL, queued through graphile-worker in the same transaction. The queue
 * entry's job key is the job's id, so a worker can tell which job an exhausted entry was.
 *
 * Fair across accounts (issue 23), with graphile-worker's own job queues and priorities rather
 * than a dispatcher of ours: each job goes to one of its account's `accountConcurrency` named
 * queues, and graphile-worker runs at most one job of a named queue at a time, so an account
 * never runs more than that many jobs at once, on every worker process together, enforced by
 * the queue's lock in the database. Its priority is the number of jobs the account already has
 * in flight, so the next free worker slot takes the job of the account with the fewest waiting
 * ahead of it (B's first job before A's thirtieth), in arrival order among equals. Both are
 * decided in the statement that inserts the job: no extra round trip, no extra table.
 */
export function createPgJobStore(db: Db, maxAttempts = 3, accountConcurrency = 2): JobStore {
  // Jobs accepted in the same moment (a burst of 202s) are written together, in one round trip
  // and one transaction per batch: enqueue_jobs (drizzle/0016, 0017) takes each job's hold, writes its
  // row unless the same call is in flight, and queues it, in order. A lone job waits for nothing.
  const enqueueAll = async (jobs: NewJob[]): Promise<EnqueueOutcome[]> => {
    const { rows } = await db.execute<{ job_id: string; outcome: EnqueueOutcome }>(
      sql`select job_id, outcome from enqueue_jobs(${JSON.stringify(jobs.map(enqueueArgument))}::jsonb, ${TASKS.runOperation}, ${maxAttempts}::int, ${accountConcurrency}::int)`,
    );
    // Matched by job id, not by row order (which a set-returning function does not promise).
    const outcomes = new Map(rows.map((r) => [r.job_id, r.outcome]));
    return jobs.map((job) => {
      const outcome = outcomes.get(job.id);
      if (outcome === undefined) throw new Error(`enqueue_jobs returned no outcome for job ${job.id}`);
      return outcome;
    });
  };
  // A batch is one transaction: when one of its jobs' data fails it (say its account was deleted
  // meanwhile), each job is tried alone, so only the job that fails alone gets the error. Any other
  // failure (a lock timeout, the database gone) is every job's, and is not tried again here.
  const enqueueBatched = batcher(async (jobs: NewJob[]) => {
    try {
      return await enqueueAll(jobs);
    } catch (err) {
      if (jobs.length === 1 || !isDataError(err)) throw err;
      const alone: (EnqueueOutcome | Failed)[] = [];
      for (const job of jobs) alone.push(await enqueueAll([job]).then((outs) => outs[0]!, (e: unknown) => new Failed(e)));
      return alone;
    }
  }, ENQUEUE_BATCH, ENQUEUE_BATCHES_IN_FLIGHT);
  return {
    async enqueue(job: NewJob) {
      const outcome = await enqueueBatched(job);
      if (outcome === 'unaffordable') return outcome;
      if (outcome === 'created') {
        const created: JobRecord = {
          id: job.id, accountId: job.accountId, keyId: job.keyId, keyEnv: job.keyEnv, procedure: job.procedure, input: job.input,
          platforms: job.platforms, status: 'pending', estimatedSeconds: job.estimatedSeconds, result: null, creditsCharged: 0,
          error: null, createdAt: job.now, startedAt: null, finishedAt: null, expiresAt: job.expiresAt,
        };
        return { job: created, created: true };
      }
      const [existing] = await db
        .select()
        .from(asyncJobs)
        .where(and(eq(asyncJobs.accountId, job.accountId), eq(asyncJobs.dedupKey, job.dedupKey), inArray(asyncJobs.status, IN_FLIGHT)));
      if (!existing) throw new Error('in-flight job vanished during enqueue; retry');
      return { job: toRecord(existing), created: false };
    },

    async find(id, owner, now) {
      const [row] = await db
        .select()
        .from(asyncJobs)
        .where(and(eq(asyncJobs.id, id), eq(asyncJobs.accountId, owner.accountId), eq(asyncJobs.keyEnv, owner.keyEnv), gt(asyncJobs.expiresAt, now)));
      return row ? toRecord(row) : null;
    },

    async start(id, now) {
      const [row] = await db
        .update(asyncJobs)
        .set({ status: 'running', startedAt: now })
        .where(and(eq(asyncJobs.id, id), inArray(asyncJobs.status, IN_FLIGHT)))
        .returning();
      return row ? toRecord(row) : null;
    },

    async complete(job, { credits, result, billed, now, queueEntry, legs }) {
      // One statement, one round trip (issue 29): the job row, locked while it is still in flight,
      // fences the debit; the row is marked completed in the same statement only when its charge
      // is in the ledger, and the job's hold is released with it, and its queue entry removed.
      // A job no longer in flight (a re-run after a crash, a concurrent attempt) is left alone and
      // charges nothing.
      const id = job.id;

      const holdId = `job:${id}`;
      // The last legs are told as the row is returned: only when it completes, before its end's trigger.
      const told = legs && legs.length > 0 ? sql`, ${legNotices(id, legs)} as told` : sql``;
      const completed = (charged: SQL) => sql`
        update ${asyncJobs} set status = 'completed', result = ${JSON.stringify(result)}::jsonb, credits_charged = ${credits}, finished_at = ${now.toISOString()}::timestamptz
        where id = ${id} and status in ('pending', 'running') and ${charged} returning id ${told}`;
      if (credits > 0) {
        const inFlight = sql`select 1 from ${asyncJobs} where id = ${id} and account_id = ${job.accountId} and status in ('pending', 'running') for update`;
        const entry = { accountId: job.accountId, entryKey: holdId, amount: -credits, ...chargeDetail(job.procedure, billed), keyId: job.keyId, holdId };
        const posted = await postFencedEntryAlong(db, entry, inFlight, completed(sql`(exists (select 1 from appended) or exists (select 1 from dup))`), queueEntry ? dequeueAlong(queueEntry, sql`exists (select 1 from along)`) : null);
        if (posted === 'fenced_out') return 'already_done';
        return posted ? 'completed' : 'unaffordable';
      }
      const { rows } = await db.execute<{ completed: boolean }>(sql`
        with done as (${completed(sql`true`)}),
        released as (delete from ${creditHolds} where id = ${holdId} and exists (select 1 from done))
        ${queueEntry ? sql`, ${dequeueAlong(queueEntry, sql`exists (select 1 from done)`)}` : sql``}
        select exists (select 1 from done) as completed`);
      return rows[0]?.completed ? 'completed' : 'already_done';
    },

    async fail(id, error, now) {
      await db
        .update(asyncJobs)
        .set({ status: 'failed', error, creditsCharged: 0, finishedAt: now })
        .where(and(eq(asyncJobs.id, id), inArray(asyncJobs.status, IN_FLIGHT)));
      await releaseJobHold(db, id);
    },

    async noteFailure(id, error) {
      await db.update(asyncJobs).set({ error }).where(and(eq(asyncJobs.id, id), inArray(asyncJobs.status, IN_FLIGHT)));
    },

    async abandon(id, fallback, now) {
      const rows = await db
        .update(asyncJobs)
        .set({ status: 'failed', error: sql`coalesce(${asyncJobs.error}, ${JSON.stringify(fallback)}::jsonb)`, creditsCharged: 0, finishedAt: now })
        .where(and(eq(asyncJobs.id, id), inArray(asyncJobs.status, IN_FLIGHT)))
        .returning({ id: asyncJobs.id });
      await releaseJobHold(db, id);
      return rows.length > 0;
    },

    async deleteExpired(now) {
      const gone = await db.delete(asyncJobs).where(lte(asyncJobs.expiresAt, now)).returning({ id: asyncJobs.id });
      return gone.length;
    },
  };
}

/**
 * A job's charge as the console reads it: the operation (not the procedure: `searchByBody` is a
 * search), the platforms with their credits and the outcome, as the procedure's settle() saw
 * them. Without them (a result not made by settle) only the procedure name is known.
 */
function chargeDetail(procedure: string, billed: { operation: string; platforms: { platform: string; credits: number }[]; status: 'complete' | 'partial' } | undefined): Pick<LedgerEntry, 'reason' | 'platforms' | 'status'> {
  return billed ? { reason: billed.operation, platforms: billed.platforms, status: billed.status } : { reason: procedure };
}
