import type { ChildProcess } from 'node:child_process';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { spawnWorkerProcess } from '../support/worker-spawn.js';
import { freePort } from '../support/cluster.js';
import { fakePlatforms } from '../support/fake-platforms.js';

/** At least once: a worker killed with SIGKILL in the middle of a webhook delivery; another worker delivers it. */
let app: TestApp;
let receiver: Server;
let port: number;
const children: ChildProcess[] = [];
const deliveries: { id: string; res: ServerResponse }[] = [];

function startWorkerProcess(): Promise<ChildProcess> {
  return spawnWorkerProcess({ DATABASE_URL: app.db.url, WEBHOOK_ALLOW_LOOPBACK: 'true' }, children);
}

async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(async () => {
  port = await freePort();
  // The first delivery is held unanswered (the worker is killed meanwhile); later ones are answered.
  receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      deliveries.push({ id: String(req.headers['webhook-id']), res });
      if (deliveries.length > 1) res.end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(port, '127.0.0.1', resolve));
  const fake = fakePlatforms();
  fake.set('vrbo', { expectedMs: 30_000 });
  app = await startTestApp({ platforms: { live: fake.adapters }, config: { webhooks: { allowLoopback: true, timeoutMs: 5_000, maxResponseBytes: 1_024, retryScheduleMs: [60_000] } } });
});
afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
  await app.close();
});

describe('webhook delivery and a worker crash', () => {
  it('a delivery cut by SIGKILL is made again by another worker, with the same Webhook-Id', async () => {
    const { key } = await app.newKey('live', { credits: 100 });
    const res = await app.get(`/v1/search?location=Berlin&platforms=vrbo&callbackUrl=${encodeURIComponent(`http://127.0.0.1:${port}/hook`)}`, key);
    expect(res.status).toBe(202);
    const jobId = ((await res.json()) as { data: { jobId: string } }).data.jobId;

    const first = await startWorkerProcess();
    await waitFor(() => deliveries.length === 1, 20_000);
    first.kill('SIGKILL');
    await new Promise((r) => first.on('exit', r));

    await startWorkerProcess(); // finds the dead worker silent, releases its task, delivers
    await waitFor(async () => {
      const [row] = await app.sql<{ status: string }[]>`select status from job_webhooks where job_id = ${jobId}`;
      return row?.status === 'delivered';
    }, 30_000);
    expect(deliveries.length).toBe(2);
    expect(deliveries[1]!.id).toBe(deliveries[0]!.id);
    const [row] = await app.sql<{ attempts: number; last_error: string | null }[]>`select attempts, last_error from job_webhooks where job_id = ${jobId}`;
    expect(row).toEqual({ attempts: 1, last_error: null });
    const ledger = await app.sql<{ n: string }[]>`select count(*)::text as n from credit_ledger where entry_key = ${`job:${jobId}`}`;
    expect(ledger[0]!.n).toBe('1');
  }, 90_000);
});
