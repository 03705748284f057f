import { EventEmitter } from 'node:events';
import { Logger as WorkerLogger, makeWorkerUtils, parseCronItems, run, runMigrations, type Task, type WithPgClient, type WorkerEvents } from 'graphile-worker';
import type { Logger } from 'pino';
import pg from 'pg';
import { TASKS, type TaskName } from './tasks.js';
import { IDLE_IN_TRANSACTION_MS } from '../postgres/db.js';
import type { QueueEntry } from '../../domain/ports/jobs.js';
import { EARLY_DEQUEUE_SQL } from './queue-entry.js';

/** graphile-worker's own schema (`graphile_worker`), applied beside ours; idempotent. */
export async function migrateQueue(connectionString: string): Promise<void> {
  await runMigrations({ connectionString, logger: quietLogger() });
}

/** A failed task's message may quote a drizzle error, which carries the SQL and its parameters. */
export function withoutQueries(message: string): string {
  return message.replace(/Failed query: [\s\S]*?(\nparams: [^\n]*|$)/g, 'Failed query (text and parameters withheld)');
}

function quietLogger(log?: Logger): WorkerLogger {
  return new WorkerLogger(() => (level, raw) => {
    if (!log) return;
    const message = withoutQueries(raw);
    if (level === 'error') log.error({ source: 'graphile-worker' }, message);
    else if (level === 'warning') log.warn({ source: 'graphile-worker' }, message);
    else log.debug({ source: 'graphile-worker' }, message);
  });
}

/** How long after an empty ask a worker owed one asks again: a completion's round trip, about. */
const QUEUE_UNLOCK_RETRY_MS = 10;

/**
 * Removes a finished job's queue entry and unlocks its named queue before the task returns, as
 * graphile-worker's own completion would (the same statement): graphile-worker completes a job
 * without waiting and asks for the next one at once, so that ask found the account's queue still
 * locked and a burst of one account waited on the hand-off (issue 29) rather than on its jobs.
 * A completed job's entry goes in its completion's statement (queue-entry.ts); this is for the
 * others (failed, or already done). A failure here is only a lost head start: that completion runs.
 */
async function dequeueDone(job: { id: string; job_queue_id: number | null; locked_by: string | null }, withPgClient: WithPgClient, log: Logger): Promise<void> {
  if (job.job_queue_id === null || job.locked_by === null) return;
  await withPgClient((client) =>
    client.query(EARLY_DEQUEUE_SQL, [job.id, job.locked_by]),
  ).catch((err: unknown) => log.debug({ err: String(err) }, 'early dequeue failed; the queue completes the job itself'));
}

/** The entry a job in a named queue runs under, for its completion to remove (queue-entry.ts). */
function queueEntryOf(job: { id: string; job_queue_id: number | null; locked_by: string | null }): QueueEntry | undefined {
  return job.job_queue_id === null || job.locked_by === null ? undefined : { id: job.id, lockedBy: job.locked_by };
}

export interface JobRunnerOptions {
  connectionString: string;
  concurrency: number;
  pollIntervalMs: number;
  /** How often each worker records that it is alive, and when a silent one counts as dead. */
  heartbeatMs: number;
  staleAfterMs: number;
  /**
   * Runs one job (`keyId`: the key its queue entry names, when it names one); throwing asks for a
   * retry (with backoff) until the last attempt. True when `queueEntry` went with the job's
   * completion, so there is no entry left for the runner to remove.
   */
  execute(jobId: string, attempt: number, maxAttempts: number, keyId: string | undefined, queueEntry: QueueEntry | undefined): Promise<boolean>;
  deleteExpired(): Promise<number>;
  /** One attempt to deliver a job's webhook (its own schedule of retries; see router/webhook-delivery). */
  deliverWebhook?(webhookId: number): Promise<void>;
  /** Ends the jobs (by job key) whose queue entries have no attempt left and will never run again. */
  abandon(jobIds: string[]): Promise<void>;
  log: Logger;
}

export interface JobRunner {
  stop(): Promise<void>;
}

/**
 * The job worker (graphile-worker 0.17): in the API process by default, or alone
 * (`npm run worker`); several may run. graphile-worker keeps a dead worker's jobs locked for
 * 4 hours, so workers heartbeat into `worker_heartbeats` and any worker finding another one silent
 * for `staleAfterMs` force-unlocks its jobs, which then run again (attempt n+1, billed at most once).
 */
export async function startJobRunner(o: JobRunnerOptions): Promise<JobRunner> {
  const logger = quietLogger(o.log);
  // Our own pool, with an error handler: a connection the database drops (restart, shutdown) is
  // logged instead of crashing the process, and the pool is ended when the runner stops.
  // A frozen worker's open transaction is ended by the server, as on the service's own pool (db.ts).
  const pgPool = new pg.Pool({ connectionString: o.connectionString, max: o.concurrency + 3, options: `-c idle_in_transaction_session_timeout=${IDLE_IN_TRANSACTION_MS}` });
  let stopped = false;
  // After stop() a connection the server ends is one we let go (pool.end() does not wait for it).
  const lost = (err: Error) => void (stopped || o.log.warn({ err: String(err) }, 'job queue connection lost'));
  pgPool.on('error', lost);
  pgPool.on('connect', (client) => client.on('error', lost));
  const utils = await makeWorkerUtils({ pgPool, logger });
  const workerIds = new Set<string>();
  // Every id this process ever beat for: the events below drop ids as workers stop, which is
  // before stop() deregisters them, so deregistering from workerIds alone missed them all.
  const everBeat = new Set<string>();
  const events: WorkerEvents = new EventEmitter() as WorkerEvents;

  const beat = () =>
    utils.withPgClient((client) =>
      client.query(
        `insert into worker_heartbeats (worker_id, beat_at) select unnest($1::text[]), now()
         on conflict (worker_id) do update set beat_at = excluded.beat_at`,
        [[...workerIds].map((id) => (everBeat.add(id), id))],
      ),
    );
  const sweep = async () => {
    const { rows } = await utils.withPgClient((client) =>
      client.query<{ worker_id: string }>(`delete from worker_heartbeats where beat_at < now() - make_interval(secs => $1) returning worker_id`, [o.staleAfterMs / 1000]),
    );
    if (rows.length > 0) {
      const dead = rows.map((r) => r.worker_id);
      await utils.forceUnlockWorkers(dead);
      o.log.warn({ workers: dead }, 'released the jobs of workers that stopped answering');
    }
    await reapExhausted();
  };
  // An entry released from a dead worker with every attempt spent is never fetched again
  // (graphile-worker only runs attempts < max_attempts): its job is ended here, then the entry
  // removed, so a job never stays `running` with nothing running it.
  const reapExhausted = async () => {
    const { rows } = await utils.withPgClient((client) =>
      client.query<{ id: string; key: string }>(
        `select id::text, key from graphile_worker.jobs
         where task_identifier = $1 and attempts >= max_attempts and locked_at is null and key is not null`,
        [TASKS.runOperation],
      ),
    );
    if (rows.length === 0) return;
    await o.abandon(rows.map((r) => r.key));
    await utils.completeJobs(rows.map((r) => r.id));
  };
  let beating: Promise<void> = Promise.resolve();
  const tick = (): Promise<void> => {
    if (stopped) return beating;
    beating = beat().then(sweep).catch((err: unknown) => o.log.warn({ err: String(err) }, 'worker heartbeat failed'));
    return beating;
  };

  // graphile-worker does not wait for a job's completion, which unlocks its named queue, before
  // the same worker asks for its next job: that ask often still finds the account's queues locked,
  // and the worker then sleeps a whole poll interval while the account's jobs wait (a burst of one
  // account ran on one slot, not on its JOB_ACCOUNT_CONCURRENCY). So each completion of a job in a
  // named queue earns one more ask, shortly after, for a worker whose ask came back empty; at most
  // `concurrency` are owed at once, so an idle worker never polls faster than that for long.
  let unlocksOwed = 0;
  events.on('job:complete', ({ job }) => {
    if (job.job_queue_id !== null) unlocksOwed = Math.min(unlocksOwed + 1, o.concurrency);
  });
  events.on('worker:getJob:empty', ({ worker }) => {
    if (unlocksOwed === 0 || stopped) return;
    unlocksOwed--;
    setTimeout(() => {
      try {
        if (!stopped) worker.nudge();
      } catch {
        // the worker stopped meanwhile
      }
    }, QUEUE_UNLOCK_RETRY_MS).unref();
  });

  // Jobs are locked by the pool's id (when it fetches for its workers) or by a worker's own id.
  events.on('pool:create', ({ workerPool }) => {
    workerIds.add(workerPool.id);
    void tick();
  });
  events.on('pool:release', ({ workerPool }) => void workerIds.delete(workerPool.id));
  events.on('worker:create', ({ worker }) => void workerIds.add(worker.workerId));
  events.on('worker:stop', ({ worker }) => void workerIds.delete(worker.workerId));

  const runner = await run({
    pgPool,
    concurrency: o.concurrency,
    pollInterval: o.pollIntervalMs,
    noHandleSignals: true,
    logger,
    events,
    taskList: {
      run_operation: async (payload, helpers) => {
        const dequeued = await o.execute(payload.jobId, helpers.job.attempts, helpers.job.max_attempts, payload.keyId, queueEntryOf(helpers.job));
        if (!dequeued) await dequeueDone(helpers.job, helpers.withPgClient, o.log);
      },
      delete_expired_jobs: async () => void (await o.deleteExpired()),
      deliver_webhook: async (payload) => void (await o.deliverWebhook?.(payload.webhookId)),
    } satisfies { [T in TaskName]: Task<T> },
    parsedCronItems: parseCronItems([{ task: TASKS.deleteExpiredJobs, match: '*/15 * * * *', identifier: TASKS.deleteExpiredJobs }]),
  });
  await tick();
  const timer = setInterval(() => void tick(), o.heartbeatMs);

  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await beating; // a beat landing after the deregistration would leave a row that looks dead later
      await runner.stop();
      await utils
        .withPgClient((client) => client.query('delete from worker_heartbeats where worker_id = any($1::text[])', [[...everBeat, ...workerIds]]))
        .catch(() => {});
      await utils.release();
      await pgPool.end();
    },
  };
}
