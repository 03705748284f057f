import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { fakePlatforms } from '../support/fake-platforms.js';

/** A worker killed with SIGKILL in the middle of a job: another worker finishes it, billed once. */
let app: TestApp;
const children: ChildProcess[] = [];

function startWorkerProcess(delayMs: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/support/worker-process.ts'], {
    env: { ...process.env, DATABASE_URL: app.db.url, FAKE_DELAY_MS: String(delayMs) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.includes('worker ready')) resolve(child);
    });
    child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
    child.on('exit', (code) => reject(new Error(`worker exited ${code}: ${out}`)));
  });
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
});
