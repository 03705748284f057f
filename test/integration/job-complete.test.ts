import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import type { JobLegEvent, JobRecord } from '../../src/domain/ports/jobs.js';

/**
 * A job's completion is one statement (issue 29): the job row, locked while in flight, fences the
 * debit, and the row is marked completed only with its charge in the ledger. These drive the store
 * directly (no worker), as concurrent attempts and a short balance would meet it.
 */
let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app.close();
});

const result = { data: { price: 1 }, meta: { requestId: 'req_test' } };

async function startedJob(credits: number, hold: number): Promise<{ job: JobRecord; accountId: string }> {
  const { accountId, keyId } = await app.newKey('live', { plan: 'enterprise', credits });
  const now = new Date();
  const enqueued = await app.deps.jobs.enqueue({
    id: app.deps.ids.jobId(), accountId, keyId, keyEnv: 'live', procedure: 'price', input: { listingId: '1' }, dedupKey: `complete-test:${accountId}`,
    platforms: ['airbnb'], estimatedSeconds: 30, now, expiresAt: new Date(now.getTime() + 3_600_000), hold: hold > 0 ? { credits: hold, ttlMs: 3_600_000 } : null,
  });
  if (enqueued === 'unaffordable') throw new Error('test job was refused');
  const job = await app.deps.jobs.start(enqueued.job.id, new Date());
  return { job: job!, accountId };
}

async function ledgerOf(accountId: string) {
  return app.sql<{ entry_key: string; amount: number; reason: string }[]>`select entry_key, amount::int, reason from credit_ledger where account_id = ${accountId} and entry_key like 'job:%'`;
}

async function jobRow(id: string) {
  const [row] = await app.sql<{ status: string; credits_charged: number; result: unknown; holds: number }[]>`
    select status, credits_charged, result, (select count(*)::int from credit_holds where id = ${`job:${id}`}) as holds from async_jobs where id = ${id}`;
  return row!;
}

/** The job's queue entry as a worker holds it after taking it (graphile-worker's get_job locks the entry and its named queue). */
async function takenEntry(jobId: string, worker: string) {
  const [entry] = await app.sql<{ id: string; queue_name: string }[]>`
    update graphile_worker._private_jobs set locked_by = ${worker}, locked_at = now(), attempts = attempts + 1 where key = ${jobId}
    returning id::text, (select queue_name from graphile_worker._private_job_queues q where q.id = job_queue_id)`;
  await app.sql`update graphile_worker._private_job_queues set locked_by = ${worker}, locked_at = now() where queue_name = ${entry!.queue_name}`;
  return { queueEntry: { id: entry!.id, lockedBy: worker }, queueName: entry!.queue_name };
}

async function queueState(entryId: string, queueName: string) {
  const [row] = await app.sql<{ entries: number; locked_by: string | null }[]>`
    select (select count(*)::int from graphile_worker._private_jobs where id = ${entryId}::bigint) as entries,
           (select locked_by from graphile_worker._private_job_queues where queue_name = ${queueName}) as locked_by`;
  return row!;
}

/** What a listener hears on the job channels, in order, until `until` is heard. */
async function heard(run: () => Promise<void>, until: (channel: string, payload: string) => boolean): Promise<string[]> {
  const client = new pg.Client({ connectionString: app.db.url });
  await client.connect();
  try {
    const out: string[] = [];
    const done = new Promise<void>((resolve) =>
      client.on('notification', (n) => {
        out.push(`${n.channel} ${n.payload}`);
        if (until(n.channel, n.payload ?? '')) resolve();
      }),
    );
    await client.query('listen async_job_leg; listen async_job_finished');
    await run();
    await done;
    return out;
  } finally {
    await client.end();
  }
}

const leg: JobLegEvent = { platform: 'airbnb', status: 'ok', cached: false, count: 1, done: 1, of: 1 };

describe('job completion', () => {
  it('charges once and completes once when attempts of one job complete at the same time', async () => {
    const { job, accountId } = await startedJob(100, 10);
    const outcomes = await Promise.all(Array.from({ length: 5 }, () => app.deps.jobs.complete(job, { credits: 7, result, now: new Date() })));
    expect(outcomes.filter((o) => o === 'completed')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'already_done')).toHaveLength(4);
    expect(await ledgerOf(accountId)).toEqual([{ entry_key: `job:${job.id}`, amount: -7, reason: 'price' }]);
    expect(await app.balanceOf(accountId)).toBe(93);
    expect(await jobRow(job.id)).toEqual({ status: 'completed', credits_charged: 7, result, holds: 0 });
  });

  it('leaves the job in flight and charges nothing when the balance cannot pay its result', async () => {
    const { job, accountId } = await startedJob(5, 5);
    expect(await app.deps.jobs.complete(job, { credits: 6, result, now: new Date() })).toBe('unaffordable');
    expect(await ledgerOf(accountId)).toEqual([]);
    expect(await app.balanceOf(accountId)).toBe(5);
    expect((await jobRow(job.id)).status).toBe('running');
  });

  it('charges nothing when the job named is not the account given', async () => {
    const { job, accountId } = await startedJob(100, 10);
    const other = await app.newKey('live', { plan: 'enterprise', credits: 100 });
    expect(await app.deps.jobs.complete({ ...job, accountId: other.accountId }, { credits: 7, result, now: new Date() })).toBe('already_done');
    expect(await ledgerOf(other.accountId)).toEqual([]);
    expect(await app.balanceOf(other.accountId)).toBe(100);
    expect(await app.balanceOf(accountId)).toBe(100);
    expect((await jobRow(job.id)).status).toBe('running');
  });

  it('completes a free result once, with its hold released and no ledger row', async () => {
    const { job, accountId } = await startedJob(100, 10);
    expect(await app.deps.jobs.complete(job, { credits: 0, result, now: new Date() })).toBe('completed');
    expect(await app.deps.jobs.complete(job, { credits: 0, result, now: new Date() })).toBe('already_done');
    expect(await ledgerOf(accountId)).toEqual([]);
    expect(await jobRow(job.id)).toEqual({ status: 'completed', credits_charged: 0, result, holds: 0 });
  });

  it("removes the job's queue entry and unlocks its named queue in the completion, paid or free", async () => {
    for (const credits of [7, 0]) {
      const { job } = await startedJob(100, 10);
      const { queueEntry, queueName } = await takenEntry(job.id, 'pool-test');
      expect(await app.deps.jobs.complete(job, { credits, result, now: new Date(), queueEntry })).toBe('completed');
      expect(await queueState(queueEntry.id, queueName)).toEqual({ entries: 0, locked_by: null });
    }
  });

  it('keeps the queue entry, and its queue locked, when the completion does not complete the job', async () => {
    const { job } = await startedJob(5, 5);
    const { queueEntry, queueName } = await takenEntry(job.id, 'pool-test');
    expect(await app.deps.jobs.complete(job, { credits: 6, result, now: new Date(), queueEntry })).toBe('unaffordable');
    expect(await queueState(queueEntry.id, queueName)).toEqual({ entries: 1, locked_by: 'pool-test' });
    const done = await startedJob(100, 10);
    const taken = await takenEntry(done.job.id, 'pool-test');
    expect(await app.deps.jobs.complete(done.job, { credits: 0, result, now: new Date() })).toBe('completed');
    expect(await app.deps.jobs.complete(done.job, { credits: 0, result, now: new Date(), queueEntry: taken.queueEntry })).toBe('already_done');
    expect(await queueState(taken.queueEntry.id, taken.queueName)).toEqual({ entries: 1, locked_by: 'pool-test' });
  });

  it("announces the run's last legs in the completion, before the job's end, and only when it completes the job", async () => {
    const { job } = await startedJob(100, 10);
    const completing = await heard(
      async () => void (await app.deps.jobs.complete(job, { credits: 7, result, now: new Date(), legs: [leg] })),
      (channel) => channel === 'async_job_finished',
    );
    expect(completing).toEqual([`async_job_leg ${JSON.stringify({ jobId: job.id, ...leg })}`, `async_job_finished ${job.id}`]);

    const refused = await startedJob(5, 5);
    const marker = JSON.stringify({ jobId: 'marker' });
    const notCompleting = await heard(async () => {
      expect(await app.deps.jobs.complete(refused.job, { credits: 6, result, now: new Date(), legs: [leg] })).toBe('unaffordable');
      await app.sql`select pg_notify('async_job_leg', ${marker})`;
    }, (_, payload) => payload === marker);
    expect(notCompleting).toEqual([`async_job_leg ${marker}`]);
  });
});
