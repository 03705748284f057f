import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config.js';
import { verifySignature } from '../../src/domain/webhooks/webhook-signature.js';
import { systemResolver } from '../../src/adapters/webhooks/resolver.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { freePort } from '../support/cluster.js';
import { expectError } from '../support/common-rules.js';
import { fakePlatforms, type FakePlatforms } from '../support/fake-platforms.js';

/** Signed job webhooks over real HTTP, real PostgreSQL and graphile-worker, to a receiver of the test's own (issue 17 item 3). */

interface Received {
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

let app: TestApp;
let fake: FakePlatforms;
let receiver: Server;
let port: number;
const received: Received[] = [];
const connections: Socket[] = [];
const failOnce = new Set<string>();
/** Host names this test resolves itself: a DNS it controls, to re-point a host after registration. */
const dns = new Map<string, string[][]>();

beforeAll(async () => {
  fake = fakePlatforms();
  port = await freePort();
  receiver = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (d: string) => (body += d));
    req.on('end', () => {
      const path = req.url ?? '/';
      received.push({ path, headers: req.headers, body });
      if (path.startsWith('/fail-once') && !failOnce.has(path)) {
        failOnce.add(path);
        res.statusCode = 500;
        return res.end('not yet');
      }
      if (path.startsWith('/redirect')) {
        res.writeHead(302, { Location: `http://127.0.0.1:${port}/redirected` });
        return res.end();
      }
      if (path.startsWith('/hang')) return; // never answers
      if (path.startsWith('/big')) {
        // 2 KB at once, then a byte every 100 ms, never ending: a client reading the whole answer
        // would hit its deadline; one that stops after 1 KB has its answer at once.
        res.writeHead(200, { 'Content-Type': 'text/plain' });
        res.write('x'.repeat(2_048));
        const trickle = setInterval(() => res.write('x'), 100);
        res.on('close', () => clearInterval(trickle));
        return;
      }
      res.end('ok');
    });
  });
  receiver.on('connection', (s) => connections.push(s));
  await new Promise<void>((resolve) => receiver.listen(port, '127.0.0.1', resolve));
  app = await startTestApp({
    worker: true,
    platforms: { live: fake.adapters },
    resolveHost: async (host) => {
      const answers = dns.get(host);
      if (!answers) return systemResolver(host);
      return answers.length > 1 ? answers.shift()! : answers[0]!;
    },
    config: { webhooks: { allowLoopback: true, timeoutMs: 1_000, maxResponseBytes: 1_024, retryScheduleMs: [200, 200] } },
  });
});
afterAll(async () => {
  await app.close();
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
});

const hook = (path: string) => `http://127.0.0.1:${port}${path}`;

async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

interface JobBody {
  data: { jobId: string; status: string; result?: unknown; error?: { code: string }; webhook?: { status: string; attempts: number; lastError: string | null } };
  meta: { requestId: string; creditsCharged: number };
}

async function jobOf(jobId: string, key: string): Promise<JobBody> {
  return (await (await app.get(`/v1/jobs/${jobId}`, key)).json()) as JobBody;
}

/** Waits on the database (polling the API would spend the key's rate limit), then reads the job once. */
async function webhookSettled(jobId: string, key: string): Promise<JobBody> {
  await until('the webhook to settle', async () => {
    const rows = await app.sql<{ status: string }[]>`select status from job_webhooks where job_id = ${jobId} and status in ('delivered', 'failed')`;
    return rows[0];
  });
  return jobOf(jobId, key);
}

async function accept(path: string, key: string, callbackUrl: string): Promise<string> {
  const res = await app.get(`${path}&callbackUrl=${encodeURIComponent(callbackUrl)}`, key);
  expect(res.status, await res.clone().text()).toBe(202);
  return ((await res.json()) as JobBody).data.jobId;
}

describe('job webhooks', () => {
  it('POST the job answer when it ends, signed with the account secret (sandbox keys too)', async () => {
    const { key, accountId } = await app.newKey('sandbox');
    const jobId = await accept('/v1/search?location=sandbox:async&platforms=airbnb&limit=11', key, hook('/ok/1'));
    expect((await jobOf(jobId, key)).data.webhook).toEqual({ status: 'waiting', attempts: 0, lastError: null });
    const settled = await webhookSettled(jobId, key);
    expect(settled.data.webhook).toEqual({ status: 'delivered', attempts: 1, lastError: null });
    const got = received.filter((r) => r.path === '/ok/1');
    expect(got).toHaveLength(1);
    const { headers, body } = got[0]!;
    expect(headers['content-type']).toBe('application/json');
    const secret = await app.deps.webhooks.secretOf(accountId);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const signed = { id: String(headers['webhook-id']), timestamp: String(headers['webhook-timestamp']), signature: String(headers['webhook-signature']) };
    expect(verifySignature(secret, signed, body, Math.floor(Date.now() / 1000))).toBe(true);
    expect(verifySignature(secret, signed, body.replace('completed', 'failed'), Math.floor(Date.now() / 1000))).toBe(false);
    expect(verifySignature(secret, signed, body, Math.floor(Date.now() / 1000) + 3600)).toBe(false); // stale: a replay
    const delivered = JSON.parse(body) as JobBody;
    expect(delivered.data.status).toBe('completed');
    expect(delivered.data.result).toEqual(settled.data.result);
    expect(delivered.meta.creditsCharged).toBe(0);
  });

  it('a failed job calls back too; a failed attempt is retried with the same Webhook-Id', async () => {
    const { key } = await app.newKey('live', { credits: 100 });
    fake.set('booking', { expectedMs: 30_000, mode: 'empty' });
    const jobId = await accept('/v1/listing/booking/2000031?currency=USD', key, hook('/fail-once/2'));
    const settled = await webhookSettled(jobId, key);
    fake.reset();
    expect(settled.data.webhook).toEqual({ status: 'delivered', attempts: 2, lastError: null });
    const got = received.filter((r) => r.path === '/fail-once/2');
    expect(got).toHaveLength(2);
    expect(got[0]!.headers['webhook-id']).toBe(got[1]!.headers['webhook-id']);
    expect((JSON.parse(got[1]!.body) as JobBody).data.error?.code).toBe('listing_not_found');
  });

  it('does not follow redirects, and gives up after the schedule with the last error shown', async () => {
    const { key } = await app.newKey('sandbox');
    const jobId = await accept('/v1/search?location=sandbox:async&platforms=vrbo&limit=12', key, hook('/redirect/3'));
    const settled = await webhookSettled(jobId, key);
    expect(settled.data.webhook).toMatchObject({ status: 'failed', attempts: 3 });
    expect(settled.data.webhook!.lastError).toMatch(/302.*redirects are not followed/);
    expect(received.filter((r) => r.path === '/redirect/3')).toHaveLength(3);
    expect(received.filter((r) => r.path === '/redirected')).toHaveLength(0);
  });

  it('times out a receiver that does not answer, and stops reading an answer after 1 KB', async () => {
    const { key } = await app.newKey('sandbox');
    const hung = await accept('/v1/search?location=sandbox:async&platforms=booking&limit=13', key, hook('/hang/4'));
    const big = await accept('/v1/search?location=sandbox:async&platforms=google&limit=14', key, hook('/big/4'));
    expect((await webhookSettled(big, key)).data.webhook).toEqual({ status: 'delivered', attempts: 1, lastError: null });
    const settled = await webhookSettled(hung, key);
    expect(settled.data.webhook).toMatchObject({ status: 'failed', attempts: 3, lastError: 'no answer within 1000 ms' });
  });

  it('refuses a callbackUrl that is not https on a public address, before any work', async () => {
    const { key } = await app.newKey('sandbox');
    const calls = fake.calls();
    for (const bad of ['not a url', 'ftp://example.com/x', 'http://10.0.0.1/x', 'https://169.254.169.254/latest', 'https://user:pw@127.0.0.1/x', 'https://[fd00:ec2::254]/']) {
      const res = await app.get(`/v1/search?location=sandbox:async&callbackUrl=${encodeURIComponent(bad)}`, key);
      expect((await expectError(res, 400, 'invalid_request')).param, bad).toBe('callbackUrl');
    }
    const twice = await app.get(`/v1/search?location=sandbox:async&callbackUrl=${encodeURIComponent(hook('/a'))}&callbackUrl=${encodeURIComponent(hook('/b'))}`, key);
    expect((await expectError(twice, 400, 'invalid_request')).param).toBe('callbackUrl');
    expect(fake.calls()).toBe(calls);
    const [row] = await app.sql<{ n: string }[]>`select count(*)::text as n from async_jobs`;
    const body = await fetch(`${app.baseUrl}/v1/search`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ location: 'sandbox:async', callbackUrl: 'https://metadata.google.internal/' }),
    });
    expect((await expectError(body, 400, 'invalid_request')).param).toBe('callbackUrl');
    const [after] = await app.sql<{ n: string }[]>`select count(*)::text as n from async_jobs`;
    expect(after!.n).toBe(row!.n);
  });

  it('checks the address again at delivery: a host re-pointed to loopback after registration is never connected to', async () => {
    const { key } = await app.newKey('sandbox');
    app.deps.config.webhooks.allowLoopback = false;
    try {
      // Public when registered, then loopback (DNS rebinding) at every delivery.
      dns.set('rebind.example.test', [['93.184.216.34'], ['127.0.0.1']]);
      const before = connections.length;
      const jobId = await accept('/v1/search?location=sandbox:async&platforms=airbnb&limit=15', key, `https://rebind.example.test:${port}/rebound`);
      const settled = await webhookSettled(jobId, key);
      expect(settled.data.webhook).toMatchObject({ status: 'failed', attempts: 3 });
      expect(settled.data.webhook!.lastError).toMatch(/public address/);
      expect(connections.length).toBe(before);
      // Without the test-only allowance a loopback receiver is refused at registration.
      const res = await app.get(`/v1/search?location=sandbox:async&callbackUrl=${encodeURIComponent(hook('/x'))}`, key);
      expect((await expectError(res, 400, 'invalid_request')).param).toBe('callbackUrl');
    } finally {
      app.deps.config.webhooks.allowLoopback = true;
    }
  });

  it('the loopback allowance is off by default and refused in production', () => {
    expect(parseConfig({}).webhooks.allowLoopback).toBe(false);
    expect(parseConfig({ WEBHOOK_ALLOW_LOOPBACK: 'true' }).webhooks.allowLoopback).toBe(true);
    expect(() => parseConfig({ NODE_ENV: 'production', CURSOR_SECRET: 'x'.repeat(32), WEBHOOK_ALLOW_LOOPBACK: 'true' })).toThrow(/WEBHOOK_ALLOW_LOOPBACK/);
  });

  it('a rotated secret signs beside the previous one for a day', async () => {
    const { key, accountId } = await app.newKey('sandbox');
    const old = await app.deps.webhooks.secretOf(accountId);
    const { secret, previousSignsUntil } = await app.deps.webhooks.rotate(accountId, new Date());
    expect(secret).not.toBe(old);
    expect(previousSignsUntil).not.toBeNull();
    const jobId = await accept('/v1/search?location=sandbox:async&platforms=booking,vrbo&limit=16', key, hook('/ok/8'));
    await webhookSettled(jobId, key);
    const { headers, body } = received.find((r) => r.path === '/ok/8')!;
    const signed = { id: String(headers['webhook-id']), timestamp: String(headers['webhook-timestamp']), signature: String(headers['webhook-signature']) };
    expect(signed.signature.split(' ')).toHaveLength(2);
    const now = Math.floor(Date.now() / 1000);
    expect([verifySignature(secret, signed, body, now), verifySignature(old, signed, body, now)]).toEqual([true, true]);
  });
});
