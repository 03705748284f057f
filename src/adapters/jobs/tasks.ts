import { sql, type SQL } from 'drizzle-orm';

/**
 * The job queue's tasks, each name with its payload, declared once through graphile-worker's own
 * typing (`GraphileWorker.Tasks`): the runner's handlers receive typed payloads, and the SQL that
 * queues a task (in the statement that writes the row it belongs to) is built from the same
 * declaration, so a name or a payload field cannot drift between the two.
 */
declare global {
  namespace GraphileWorker {
    interface Tasks {
      /** Run an accepted job through its procedure (router/jobs/job-executor.ts). */
      run_operation: {
        jobId: string;
        /** The key that made the job, so the worker looks it up while it marks the job running (absent on entries queued before it was added). */
        keyId?: string;
      };
      /** One delivery attempt of a job's webhook (router/webhooks/webhook-delivery.ts). */
      deliver_webhook: { webhookId: number };
      /** Delete jobs, answers and webhooks past their retention (a cron task). */
      delete_expired_jobs: Record<string, never>;
    }
  }
}

export type TaskName = keyof GraphileWorker.Tasks;
export type TaskPayload<T extends TaskName> = GraphileWorker.Tasks[T];

/** The task names, for code that names a task rather than queueing it (the reaper, the cron table). */
export const TASKS = { runOperation: 'run_operation', deliverWebhook: 'deliver_webhook', deleteExpiredJobs: 'delete_expired_jobs' } as const satisfies Record<string, TaskName>;

/**
 * `graphile_worker.add_job(task, json_build_object(payload...), options...)` as SQL: each payload
 * field is an SQL expression of the statement (`sql\`id\``), and every field of the task's payload
 * must be given. `options` are add_job's named arguments (`max_attempts := 3, job_key := id`).
 */
export function addJobSql<T extends TaskName>(task: T, payload: { [K in keyof TaskPayload<T>]-?: SQL }, options: SQL): SQL {
  const fields = Object.entries(payload as Record<string, SQL>).map(([name, value]) => sql`${sql.raw(`'${name}'`)}, ${value}`);
  return sql`graphile_worker.add_job(${sql.raw(`'${task}'`)}, json_build_object(${sql.join(fields, sql`, `)}), ${options})`;
}
