import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { replayLiveConfig, startReplayUpstream, type ReplayUpstream } from '../support/replay-upstream.js';
import { createDeps, type Deps } from '../../src/deps.js';
import { startWorker } from '../../src/app/job-worker.js';
import type { JobRunner } from '../../src/adapters/jobs/runner.js';

/**
 * Issue 16 item 4 on the live path: the worker announces each platform leg as it ends, and the
 * process holding the MCP call's SSE stream forwards it as notifications/progress, then the result.
 * The replay upstream's per-platform delays set the order in which the legs end. `app` serves
 * HTTP without a worker; its jobs run on a worker with Deps of its own (its own connections, as
 * another process would have), so the events can only travel through PostgreSQL.
 */
let replay: ReplayUpstream;
let app: TestApp;
let short: TestApp;
let workerDeps: Deps;
let worker: JobRunner;

beforeAll(async () => {
  replay = await startReplayUpstream();
  // google's own projection (2.5 s a page) is past the 1 s threshold: these searches go async.
  const config = { asyncThresholdMs: 1_000, legDeadlineMs: 10_000, live: replayLiveConfig(replay.url, { timeoutMs: 10_000, retries: 0, concurrency: 4 }) };
  [app, short] = await Promise.all([startTestApp({ config }), startTestApp({ worker: true, config: { ...config, mcpProgressWaitSeconds: 2 } })]);
  workerDeps = createDeps(app.deps.config, app.db.url);
  worker = await startWorker(workerDeps, app.db.url);
});
afterAll(async () => {
  await worker?.stop();
  await workerDeps?.close();
  await Promise.all([app?.close(), short?.close()]);
  await replay?.close();
});

async function delays(byPlatform: Record<string, number>): Promise<void> {
  await fetch(`${replay.url}/__replay`, { method: 'DELETE' });
  for (const [platform, delayMs] of Object.entries(byPlatform)) await fetch(`${replay.url}/__replay`, { method: 'POST', body: JSON.stringify({ platform, delayMs }) });
}

async function connect(target: TestApp): Promise<Client & { accountId: string }> {
  const { key, accountId } = await target.newKey('live', { plan: 'scale', credits: 100 });
  const client = new Client({ name: 'test-agent', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${target.baseUrl}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${key}` } } }));
  return Object.assign(client, { accountId });
}

type Progress = { progress: number; total?: number; message?: string };
type Result = { structuredContent: { data: unknown; meta: { creditsCharged: number; platformResults?: { platform: string; status: string }[] } } };
const platforms = ['airbnb', 'booking', 'vrbo', 'google'];

describe('MCP progress per platform leg (live, through the worker)', () => {
  it('sends one notification per finished leg, in the order the legs ended, then the result inline', async () => {
    await delays({ google: 50, vrbo: 700, airbnb: 1_400, booking: 2_100 });
    const client = await connect(app);
    const seen: Progress[] = [];
    const result = (await client.callTool({ name: 'search_stays', arguments: { location: 'Lisbon', platforms, limit: 20 } }, undefined, { onprogress: (p) => seen.push(p), timeout: 30_000 })) as unknown as Result;

    expect(seen[0]).toMatchObject({ progress: 0, total: 4, message: expect.stringMatching(/^Accepted as job job_/) });
    const legs = seen.slice(1);
    expect(legs.map((p) => [p.progress, p.total])).toEqual([[1, 4], [2, 4], [3, 4], [4, 4]]);
    expect(legs.map((p) => p.message?.split(':')[0])).toEqual(['google', 'vrbo', 'airbnb', 'booking']);
    expect(legs[0]!.message).toMatch(/^google: ok, \d+ item\(s\) \(1 of 4 done\)\.$/);
    // The result itself, not a job handle, billed once for the four legs that returned items.
    expect(Array.isArray(result.structuredContent.data)).toBe(true);
    expect(result.structuredContent.meta.creditsCharged).toBe(20);
    expect(result.structuredContent.meta.platformResults?.map((r) => r.status)).toEqual(['ok', 'ok', 'ok', 'ok']);
    await client.close();
  });

  it('reports a failed leg as it ends too', async () => {
    await delays({ google: 50, vrbo: 600, airbnb: 1_200, booking: 1_800 });
    await fetch(`${replay.url}/__replay`, { method: 'POST', body: JSON.stringify({ platform: 'vrbo', errorRate: 1 }) });
    const client = await connect(app);
    const seen: Progress[] = [];
    const result = (await client.callTool({ name: 'search_stays', arguments: { location: 'Porto', platforms, limit: 20 } }, undefined, { onprogress: (p) => seen.push(p), timeout: 30_000 })) as unknown as Result;
    expect(seen.slice(1).map((p) => p.message?.replace(/, \d+ item.*$/, ''))).toEqual(['google: ok', 'vrbo: failed (2 of 4 done).', 'airbnb: ok', 'booking: ok']);
    expect(result.structuredContent.meta.creditsCharged).toBe(15);
    await client.close();
  });

  it('answers the job handle past the bound, after the legs that ended within it; the job still completes once', async () => {
    await delays({ google: 50, vrbo: 4_000, airbnb: 4_000, booking: 4_000 });
    const client = await connect(short);
    const seen: Progress[] = [];
    const result = (await client.callTool({ name: 'search_stays', arguments: { location: 'Lisbon', platforms, limit: 20 } }, undefined, { onprogress: (p) => seen.push(p), timeout: 30_000 })) as unknown as Result;
    const job = result.structuredContent.data as { jobId: string; status: string };
    expect(job.jobId).toMatch(/^job_/);
    // Only google (50 ms) can end within the bound; how soon the worker takes the job is the machine's.
    expect(seen[0]).toMatchObject({ progress: 0, total: 4 });
    expect(seen.slice(1).map((p) => [p.progress, p.message?.split(':')[0]])).toEqual(seen.length > 1 ? [[1, 'google']] : []);

    let polled: Result;
    do {
      await new Promise((r) => setTimeout(r, 300));
      polled = (await client.callTool({ name: 'get_job', arguments: { jobId: job.jobId } })) as unknown as Result;
    } while (['pending', 'running'].includes((polled.structuredContent.data as { status: string }).status));
    expect(polled.structuredContent.data).toMatchObject({ status: 'completed' });
    const [row] = await short.sql<{ b: string }[]>`select credit_balance::text as b from accounts where id = ${client.accountId}`;
    expect(Number(row!.b)).toBe(80);
    await client.close();
  });
});
