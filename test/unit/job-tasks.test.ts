import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { addJobSql, TASKS } from '../../src/adapters/jobs/tasks.js';

/** The typed task catalog: the SQL that queues a task is built from the task's declared payload. */
const render = (q: ReturnType<typeof addJobSql>) => new PgDialect().sqlToQuery(q);

describe('job queue tasks', () => {
  it("queues a task with its payload's fields as SQL expressions and add_job's named options", () => {
    const q = render(addJobSql('deliver_webhook', { webhookId: sql`id` }, sql`job_key := 'webhook:' || id, max_attempts := ${5}::int`));
    expect(q.sql).toBe("graphile_worker.add_job('deliver_webhook', json_build_object('webhookId', id), job_key := 'webhook:' || id, max_attempts := $1::int)");
    expect(q.params).toEqual([5]);
  });

  it('names every task the runner serves', () => {
    expect(Object.values(TASKS).sort()).toEqual(['delete_expired_jobs', 'deliver_webhook', 'run_operation']);
  });

  it('refuses, at compile time, an unknown task or a payload that is not the declared one', () => {
    // @ts-expect-error no such task
    addJobSql('send_email', {}, sql``);
    // @ts-expect-error run_operation's payload is { jobId }
    addJobSql('run_operation', { webhookId: sql`id` }, sql``);
    expect(true).toBe(true);
  });
});
