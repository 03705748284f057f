import pg from 'pg';
import { sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EARLY_DEQUEUE_SQL, dequeueAlong } from '../../src/adapters/jobs/queue-entry.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';

/**
 * What src/adapters/jobs/queue-entry.ts relies on in graphile-worker beyond its published API: the
 * early dequeue of a finished job writes to the queue's private tables, alone or as part of the
 * job's completion. Run on a queue migrated by the pinned graphile-worker, each form must remove
 * the entry its worker holds, unlock that entry's named queue, and leave an entry another worker
 * holds alone. A failure after an upgrade means the statements name what the new version renamed:
 * fix queue-entry.ts (or drop the head start).
 */
let db: TestDatabase;
let client: pg.Client;

beforeAll(async () => {
  db = await createTestDatabase();
  client = new pg.Client({ connectionString: db.url });
  await client.connect();
});
afterAll(async () => {
  await client?.end();
  await db?.drop();
});

async function lockedEntry(queue: string, worker: string): Promise<string> {
  const { rows } = await client.query<{ id: string }>(`select id::text from graphile_worker.add_job('noop', '{}'::json, queue_name => $1)`, [queue]);
  const id = rows[0]!.id;
  // What graphile-worker's get_job does when a worker takes the entry.
  await client.query(`update graphile_worker._private_jobs set locked_by = $2, locked_at = now() where id = $1::bigint`, [id, worker]);
  await client.query(`update graphile_worker._private_job_queues set locked_by = $2, locked_at = now() where queue_name = $1`, [queue, worker]);
  return id;
}

const queueLock = async (queue: string) => (await client.query<{ locked_by: string | null }>(`select locked_by from graphile_worker._private_job_queues where queue_name = $1`, [queue])).rows[0]!.locked_by;
/** dequeueAlong in a statement of its own, `done` standing for the completion it rides. */
async function dequeueAlongRun(id: string, worker: string, done: SQL): Promise<void> {
  const query = new PgDialect().sqlToQuery(sql`with ${dequeueAlong({ id, lockedBy: worker }, done)} select 1`);
  await client.query(query.sql, query.params);
}

const entries = async (id: string) => (await client.query(`select 1 from graphile_worker.jobs where id = $1::bigint`, [id])).rowCount;

describe('graphile-worker internals', () => {
  it('the early dequeue removes the entry its worker holds and unlocks its named queue', async () => {
    const id = await lockedEntry('acct-a:0', 'worker-1');
    expect(await queueLock('acct-a:0')).toBe('worker-1');
    await client.query(EARLY_DEQUEUE_SQL, [id, 'worker-1']);
    expect(await entries(id)).toBe(0);
    expect(await queueLock('acct-a:0')).toBeNull();
  });

  it('leaves an entry and a queue another worker holds untouched', async () => {
    const id = await lockedEntry('acct-b:0', 'worker-2');
    await client.query(EARLY_DEQUEUE_SQL, [id, 'worker-1']);
    expect(await entries(id)).toBe(1);
    expect(await queueLock('acct-b:0')).toBe('worker-2');
  });

  it('as part of a completion, removes the entry and unlocks its queue only when the completion is done', async () => {
    const id = await lockedEntry('acct-c:0', 'worker-1');
    await dequeueAlongRun(id, 'worker-1', sql`false`);
    expect(await entries(id)).toBe(1);
    expect(await queueLock('acct-c:0')).toBe('worker-1');
    await dequeueAlongRun(id, 'worker-1', sql`true`);
    expect(await entries(id)).toBe(0);
    expect(await queueLock('acct-c:0')).toBeNull();
  });

  it('as part of a completion, leaves an entry and a queue another worker holds untouched', async () => {
    const id = await lockedEntry('acct-d:0', 'worker-2');
    await dequeueAlongRun(id, 'worker-1', sql`true`);
    expect(await entries(id)).toBe(1);
    expect(await queueLock('acct-d:0')).toBe('worker-2');
  });
});
