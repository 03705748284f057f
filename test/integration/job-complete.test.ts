import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import type { JobRecord } from '../../src/domain/ports/jobs.js';

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
});
