import { sql, type SQL } from 'drizzle-orm';
import type { QueueEntry } from '../../domain/ports/jobs.js';

/**
 * graphile-worker 0.17.3's own completion of a job, on its private tables (`_private_jobs`,
 * `_private_job_queues`): the only statements of ours that touch them.
 * test/contract/graphile-internals.test.ts runs both forms on a migrated queue and fails when an
 * upgrade renames what they name. Only an entry its worker still holds is touched, so
 * graphile-worker's completion that follows finds nothing left to do.
 *
 * EARLY_DEQUEUE_SQL alone: $1 the entry's id, $2 the worker holding it.
 */
export const EARLY_DEQUEUE_SQL = `with entry as (delete from graphile_worker._private_jobs where id = $1::bigint and locked_by = $2::text returning job_queue_id)
       update graphile_worker._private_job_queues as q set locked_by = null, locked_at = null
       from entry where q.id = entry.job_queue_id and q.locked_by = $2::text`;

/**
 * The same as two common table expressions (`dequeued`, `unlocked`) of a caller's statement,
 * which act only when `done` holds: a job's completion removes its queue entry and frees its
 * account's named queue in the statement that completes it, so the queue's next job waits for
 * no round trip of its own, and a completed job's entry cannot outlive it.
 */
export function dequeueAlong(entry: QueueEntry, done: SQL): SQL {
  return sql`dequeued as (
      delete from graphile_worker._private_jobs where id = ${entry.id}::bigint and locked_by = ${entry.lockedBy}::text and ${done}
      returning job_queue_id
    ),
    unlocked as (
      update graphile_worker._private_job_queues as q set locked_by = null, locked_at = null
      from dequeued where q.id = dequeued.job_queue_id and q.locked_by = ${entry.lockedBy}::text
    )`;
}
