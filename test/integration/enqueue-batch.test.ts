import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import type { NewJob } from '../../src/domain/ports/jobs.js';
import { enqueueArgument } from '../../src/adapters/postgres/jobs/job-store.js';

/**
 * Jobs accepted in the same moment are written by one enqueue_jobs call (issue 29). A batch is
 * one transaction, so a job whose row cannot be written (its account is gone) must not take the
 * other jobs of its batch down with it. No worker runs here: only what the enqueue wrote is read.
 */
let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app.close();
});

function newJob(accountId: string, keyId: string, n: number): NewJob {
  const now = new Date();
  return {
    id: app.deps.ids.jobId(), accountId, keyId, keyEnv: 'live', procedure: 'price', input: { listingId: String(n) },
    dedupKey: `batch-test:${n}`, platforms: ['airbnb'], estimatedSeconds: 30, now, expiresAt: new Date(now.getTime() + 3_600_000),
    hold: { credits: 5, ttlMs: 3_600_000 },
  };
}

describe('batched enqueue', () => {
  it('writes every job of a burst with its hold, and fails only the job whose account is gone', async () => {
    const { accountId, keyId } = await app.newKey('live', { plan: 'enterprise', credits: 1_000 });
    const jobs = Array.from({ length: 6 }, (_, i) => newJob(accountId, keyId, i));
    jobs[3] = newJob('acct_does_not_exist', keyId, 3);
    // Without a hold the unknown account reaches the insert (a foreign key violation), not the hold check.
    jobs[3].hold = null;
    const outcomes = await Promise.allSettled(jobs.map((j) => app.deps.jobs.enqueue(j)));
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    const [rows] = await app.sql<{ jobs: number; holds: number; queued: number }[]>`
      select (select count(*)::int from async_jobs where account_id = ${accountId}) as jobs,
             (select count(*)::int from credit_holds where account_id = ${accountId}) as holds,
             (select count(*)::int from graphile_worker.jobs where key = any(${jobs.map((j) => j.id)})) as queued`;
    expect(rows).toEqual({ jobs: 5, holds: 5, queued: 5 });
  });

  it('answers the in-flight job, without a second hold, for the same call twice in one burst', async () => {
    const { accountId, keyId } = await app.newKey('live', { plan: 'enterprise', credits: 1_000 });
    const first = newJob(accountId, keyId, 7);
    const twin = { ...newJob(accountId, keyId, 7), dedupKey: first.dedupKey };
    const [a, b] = await Promise.all([app.deps.jobs.enqueue(first), app.deps.jobs.enqueue(twin)]);
    expect(a).not.toBe('unaffordable');
    expect(b).not.toBe('unaffordable');
    if (a === 'unaffordable' || b === 'unaffordable') return;
    expect([a.created, b.created]).toEqual([true, false]);
    expect(b.job.id).toBe(first.id);
    const [holds] = await app.sql<{ n: number }[]>`select count(*)::int as n from credit_holds where account_id = ${accountId}`;
    expect(holds!.n).toBe(1);
  });
});

describe('one batch of two accounts', () => {
  it("decides each account's holds and priorities by that account's own holds and jobs in flight, in order", async () => {
    const a = await app.newKey('live', { plan: 'enterprise', credits: 17 });
    const b = await app.newKey('live', { plan: 'enterprise', credits: 10 });
    // A already holds 2 credits and has a job in flight: 15 free, room for 3 holds of 5.
    await app.sql`insert into credit_holds (id, account_id, amount, expires_at) values (${`call:${a.accountId}`}, ${a.accountId}, 2, now() + interval '1 hour')`;
    expect(await app.deps.jobs.enqueue({ ...newJob(a.accountId, a.keyId, 500), hold: null })).not.toBe('unaffordable');
    const jobs = [0, 1, 2, 3, 4, 5, 6, 7].map((i) => (i % 2 === 0 ? newJob(a.accountId, a.keyId, 510 + i) : newJob(b.accountId, b.keyId, 510 + i)));
    const call = await app.sql.unsafe<{ job_id: string; outcome: string }[]>(`select job_id, outcome from enqueue_jobs($1::text::jsonb, 'run_operation', 3, 2)`, [JSON.stringify(jobs.map(enqueueArgument))]);
    const outcome = new Map(call.map((r) => [r.job_id, r.outcome]));
    // A: three fit (15 free), the fourth does not; B: two fit (10 free), the third and fourth do not.
    expect(jobs.map((j) => outcome.get(j.id))).toEqual(['created', 'created', 'created', 'created', 'created', 'unaffordable', 'unaffordable', 'unaffordable']);
    const queued = await app.sql<{ key: string; priority: number }[]>`select key, priority from graphile_worker.jobs where key = any(${jobs.map((j) => j.id)})`;
    const priority = new Map(queued.map((q) => [q.key, q.priority]));
    // The priority is the account's jobs already in flight: A's start after its earlier job.
    expect(jobs.slice(0, 5).map((j) => priority.get(j.id))).toEqual([1, 0, 2, 1, 3]);
  });
});

describe('two batches at once', () => {
  it('never deadlock when each names the other\'s account, one with a hold and one without', async () => {
    const a = await app.newKey('live', { plan: 'enterprise', credits: 1_000 });
    const b = await app.newKey('live', { plan: 'enterprise', credits: 1_000 });
    const call = (jobs: NewJob[]) => app.sql.unsafe(`select job_id, outcome from enqueue_jobs($1::text::jsonb, 'run_operation', 3, 2)`, [JSON.stringify(jobs.map(enqueueArgument))]);
    // X: A's job holds credits, B's holds none; Y the other way round. Each batch's foreign keys
    // take a share lock on the account it did not lock for its holds.
    const free = (job: NewJob): NewJob => ({ ...job, hold: null, keyEnv: 'sandbox' });
    for (let round = 0; round < 20; round++) {
      const x = [newJob(a.accountId, a.keyId, 1000 + round), free(newJob(b.accountId, b.keyId, 2000 + round))];
      const y = [newJob(b.accountId, b.keyId, 3000 + round), free(newJob(a.accountId, a.keyId, 4000 + round))];
      const settled = await Promise.allSettled([call(x), call(y)]);
      expect(settled.map((s) => (s.status === 'rejected' ? String(s.reason) : 'ok'))).toEqual(['ok', 'ok']);
    }
  });
});
