import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { spawnWorkerProcess } from '../support/worker-spawn.js';
import { fakePlatforms } from '../support/fake-platforms.js';

/** A worker killed with SIGKILL in the middle of a job: another worker finishes it, billed once. */
let app: TestApp;
const children: ChildProcess[] = [];

function startWorkerProcess(delayMs: number, mode = 'ok'): Promise<ChildProcess> {
  return spawnWorkerProcess({ DATABASE_URL: app.db.url, FAKE_DELAY_MS: String(delayMs), FAKE_MODE: mode }, children);
}

async function jobStatus(id: string): Promise<string> {
  const [row] = await app.sql<{ status: string }[]>`select status from async_jobs where id = ${id}`;
  return row!.status;
}

async function waitFor(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(async () => {
  const fake = fakePlatforms();
  fake.set('vrbo', { expectedMs: 30_000 });
  app = await startTestApp({ platforms: { live: fake.adapters } });
});
afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  await app.close();
});

describe('worker crash', () => {
  it('completes the job after a restart, billed exactly once, polls free', async () => {
    const { key, accountId } = await app.newKey('live', { credits: 100 });
    const res = await app.get('/v1/search?location=Berlin&platforms=vrbo', key);
    expect(res.status).toBe(202);
    const jobId = ((await res.json()) as { data: { jobId: string } }).data.jobId;

    const first = await startWorkerProcess(5_000);
    await waitFor(async () => (await jobStatus(jobId)) === 'running', 10_000);
    first.kill('SIGKILL');
    await new Promise((r) => first.on('exit', r));
    expect(await jobStatus(jobId)).toBe('running');

    const second = await startWorkerProcess(50);
    await waitFor(async () => (await jobStatus(jobId)) === 'completed', 20_000);

    for (let i = 0; i < 3; i++) {
      const poll = (await (await app.get(`/v1/jobs/${jobId}`, key)).json()) as { data: { status: string }; meta: { creditsCharged: number } };
      expect(poll).toMatchObject({ data: { status: 'completed' }, meta: { creditsCharged: 5 } });
    }
    const ledger = await app.sql<{ entry_key: string; amount: string }[]>`select entry_key, amount::text from credit_ledger where account_id = ${accountId} and amount < 0`;
    expect(ledger).toEqual([{ entry_key: `job:${jobId}`, amount: '-5' }]);
    const [balance] = await app.sql<{ b: string }[]>`select credit_balance::text as b from accounts where id = ${accountId}`;
    expect(balance!.b).toBe('95');

    second.kill('SIGTERM');
    await new Promise((r) => second.on('exit', r));
  }, 60_000);

  /** The queue entry of a job: attempts made, and whether a worker holds it. */
  async function queueEntry(jobId: string): Promise<{ attempts: number; locked: boolean } | undefined> {
    const [row] = await app.sql<{ attempts: number; locked: boolean }[]>`select attempts, locked_at is not null as locked from graphile_worker.jobs where key = ${jobId}`;
    return row;
  }

  async function kill(child: ChildProcess): Promise<void> {
    const exited = new Promise((r) => child.on('exit', r));
    child.kill('SIGKILL');
    await exited;
  }

  async function poll(jobId: string, key: string) {
    return (await (await app.get(`/v1/jobs/${jobId}`, key)).json()) as { data: { status: string; error?: { code: string; retryable: boolean } }; meta: { creditsCharged: number } };
  }

  it('fails a job whose three attempts all died with their workers: 0 credits, polled as failed', async () => {
    const { key, accountId } = await app.newKey('live', { credits: 100 });
    const res = await app.get('/v1/search?location=Madrid&platforms=vrbo', key);
    expect(res.status).toBe(202);
    const jobId = ((await res.json()) as { data: { jobId: string } }).data.jobId;

    for (let attempt = 1; attempt <= 3; attempt++) {
      const worker = await startWorkerProcess(30_000);
      await waitFor(async () => {
        const entry = await queueEntry(jobId);
        return !!entry && entry.attempts === attempt && entry.locked;
      }, 20_000);
      await kill(worker);
    }
    expect(['pending', 'running']).toContain((await poll(jobId, key)).data.status); // yet nothing runs it any more

    const last = await startWorkerProcess(50);
    await waitFor(async () => (await jobStatus(jobId)) === 'failed', 15_000);
    const polled = await poll(jobId, key);
    expect(polled.data).toMatchObject({ status: 'failed', error: { code: 'internal_error', retryable: true } });
    expect(polled.meta.creditsCharged).toBe(0);
    expect(await queueEntry(jobId)).toBeUndefined();
    expect(await app.sql`select 1 from credit_ledger where account_id = ${accountId} and amount < 0`).toHaveLength(0);
    last.kill('SIGTERM');
    await new Promise((r) => last.on('exit', r));
  }, 120_000);

  it('fails a job crashed on its last attempt after two retryable failures with the error those failures gave', async () => {
    const { key } = await app.newKey('live', { credits: 100 });
    const res = await app.get('/v1/search?location=Paris&platforms=vrbo', key);
    const jobId = ((await res.json()) as { data: { jobId: string } }).data.jobId;

    const failing = await startWorkerProcess(0, 'fail');
    await waitFor(async () => (await queueEntry(jobId))?.attempts === 2 && !(await queueEntry(jobId))!.locked, 30_000);
    await kill(failing);
    const slow = await startWorkerProcess(30_000);
    await waitFor(async () => {
      const entry = await queueEntry(jobId);
      return !!entry && entry.attempts === 3 && entry.locked;
    }, 30_000);
    await kill(slow);

    const last = await startWorkerProcess(50);
    await waitFor(async () => (await jobStatus(jobId)) === 'failed', 15_000);
    const polled = await poll(jobId, key);
    expect(polled.data).toMatchObject({ status: 'failed', error: { code: 'upstream_unavailable', retryable: true } });
    expect(polled.meta.creditsCharged).toBe(0);
    last.kill('SIGTERM');
    await new Promise((r) => last.on('exit', r));
  }, 120_000);
});
