import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import { createMetricsServer } from '../../src/facades/metrics.js';
import { TEST_METRICS_TOKEN, startTestApp, type TestApp } from '../support/app.js';
import { fakePlatforms } from '../support/fake-platforms.js';

async function waitFor<T>(find: () => T | undefined, timeoutMs = 10_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

const lines: string[] = [];
let app: TestApp;
const fake = fakePlatforms();
beforeAll(async () => {
  const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
  app = await startTestApp({ log, platforms: { live: fake.adapters } });
});
afterAll(() => app.close());

describe('request logs and metrics', () => {
  it('logs one line per request with the request id, key prefix, status, credits and duration, never the key', async () => {
    const { key } = await app.newKey('live', { credits: 50 });
    const res = await app.get('/v1/search?location=Lisbon&platforms=airbnb', key);
    const requestId = res.headers.get('x-request-id')!;
    await res.text();
    await app.get('/v1/account', 'svc_live_' + 'x'.repeat(43));
    await new Promise((r) => setTimeout(r, 20));
    const entries = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    const line = entries.find((e) => e.requestId === requestId);
    expect(line).toMatchObject({ msg: 'request', face: 'rest', method: 'GET', route: '/search', status: 200, keyPrefix: key.slice(0, 15), credits: 5 });
    expect(line!.durationMs).toEqual(expect.any(Number));
    expect(entries.some((e) => e.status === 401 && e.route === '/account')).toBe(true);
    expect(lines.join('\n')).not.toContain(key);
    expect(lines.join('\n')).not.toContain(key.slice(15));
  });

  it('exposes Prometheus metrics: requests, leg latency per platform, credits', async () => {
    const text = await (await app.get('/metrics', TEST_METRICS_TOKEN)).text();
    expect(text).toMatch(/ads_http_requests_total\{face="rest",route="\/search",status="200"\} \d+/);
    expect(text).toMatch(/ads_leg_duration_seconds_count\{platform="airbnb",operation="search",status="ok",cached="false"\} \d+/);
    expect(text).toMatch(/ads_credits_charged_total\{operation="search"\} 5/);
  });

  it('logs and counts a request whose client went away before the answer: status 499, aborted, 0 credits', async () => {
    const { key, accountId } = await app.newKey('live', { credits: 50 });
    fake.set('booking', { delayMs: 1_500 });
    const before = fake.calls();
    const gone = new AbortController();
    const pending = fetch(`${app.baseUrl}/v1/search?location=Porto&platforms=booking`, { headers: { Authorization: `Bearer ${key}` }, signal: gone.signal });
    await waitFor(() => (fake.calls() > before ? true : undefined));
    gone.abort();
    await pending.catch(() => {});
    const line = await waitFor(() => lines.map((l) => JSON.parse(l) as Record<string, unknown>).find((e) => e.msg === 'request' && e.route === '/search' && e.status === 499));
    fake.reset();
    expect(line).toMatchObject({ face: 'rest', method: 'GET', aborted: true, keyPrefix: key.slice(0, 15), credits: 0 });
    expect(line.requestId).toMatch(/^req_/);
    const text = await (await app.get('/metrics', TEST_METRICS_TOKEN)).text();
    expect(text).toMatch(/ads_http_requests_total\{face="rest",route="\/search",status="499"\} 1/);
    // Not billed: the client was gone before the debit (the leg itself succeeded).
    const [account] = await app.sql<{ b: string }[]>`select credit_balance::text as b from accounts where id = ${accountId}`;
    expect(account!.b).toBe('50');
    expect(await app.sql`select 1 from credit_ledger where account_id = ${accountId} and amount < 0`).toHaveLength(0);
  });

  it('serves /metrics on the public listener only with the metrics token, and only to GET', async () => {
    expect((await app.get('/metrics')).status).toBe(401);
    expect((await app.get('/metrics', 'wrong-token-wrong-token')).status).toBe(401);
    const { key } = await app.newKey('live', { credits: 5 });
    expect((await app.get('/metrics', key)).status).toBe(401); // an API key is not the metrics token
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
      const res = await fetch(`${app.baseUrl}/metrics`, { method, headers: { Authorization: `Bearer ${TEST_METRICS_TOKEN}` } });
      expect({ method, status: res.status, allow: res.headers.get('allow') }).toEqual({ method, status: 405, allow: 'GET, HEAD' });
    }
  });

  it('serves /metrics on a listener of its own (METRICS_PORT) and not at all on the public one without a token', async () => {
    const closed = await startTestApp({ config: { metrics: { port: null, token: null } } });
    const own = createMetricsServer(closed.deps);
    await new Promise<void>((resolve) => own.listen(0, '127.0.0.1', resolve));
    try {
      expect((await closed.get('/metrics')).status).toBe(404);
      const res = await fetch(`http://127.0.0.1:${(own.address() as AddressInfo).port}/metrics`);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('ads_http_requests_total');
      expect((await fetch(`http://127.0.0.1:${(own.address() as AddressInfo).port}/metrics`, { method: 'POST' })).status).toBe(405);
    } finally {
      await new Promise((r) => own.close(r));
      await closed.close();
    }
  });

  it('logs and counts requests outside /v1 and /trpc too, with bounded route labels', async () => {
    await (await app.get('/healthz')).text();
    await (await app.get('/no/such/page')).text();
    await (await fetch(`${app.baseUrl}/mcp`, { method: 'POST' })).text();
    const text = await (await app.get('/metrics', TEST_METRICS_TOKEN)).text();
    expect(text).toMatch(/ads_http_requests_total\{face="http",route="\/healthz",status="200"\} \d+/);
    expect(text).toMatch(/ads_http_requests_total\{face="http",route="unmatched",status="404"\} \d+/);
    expect(text).toMatch(/ads_http_requests_total\{face="mcp",route="\/mcp",status="401"\} \d+/);
    const entries = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(entries.some((e) => e.msg === 'request' && e.face === 'mcp' && e.status === 401)).toBe(true);
  });

  it('does not bill an MCP tool call whose client went away before the debit', async () => {
    const { key, accountId } = await app.newKey('live', { credits: 50 });
    fake.set('booking', { delayMs: 1_500 });
    const before = fake.calls();
    const gone = new AbortController();
    const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search_stays', arguments: { location: 'Madrid', platforms: ['booking'] } } };
    const pending = fetch(`${app.baseUrl}/mcp`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: JSON.stringify(call),
      signal: gone.signal,
    });
    await waitFor(() => (fake.calls() > before ? true : undefined));
    gone.abort();
    await pending.catch(() => {});
    await new Promise((r) => setTimeout(r, 2_000)); // past the leg's 1.5 s
    fake.reset();
    const [account] = await app.sql<{ b: string }[]>`select credit_balance::text as b from accounts where id = ${accountId}`;
    expect(account!.b).toBe('50');
    // The same call, waited for, is billed: the leg did answer.
    const res = await fetch(`${app.baseUrl}/mcp`, { method: 'POST', headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' }, body: JSON.stringify(call) });
    expect(((await res.json()) as { result: { structuredContent: { meta: { creditsCharged: number } } } }).result.structuredContent.meta.creditsCharged).toBe(5);
  });

  it('does not bill a tRPC call whose client went away before the debit, and logs it as 499', async () => {
    const { key, accountId } = await app.newKey('live', { credits: 50 });
    fake.set('booking', { delayMs: 1_500 });
    const before = fake.calls();
    const gone = new AbortController();
    const input = encodeURIComponent(JSON.stringify({ location: 'Berlin', platforms: ['booking'], limit: 7 }));
    const pending = fetch(`${app.baseUrl}/trpc/search?input=${input}`, { headers: { Authorization: `Bearer ${key}` }, signal: gone.signal });
    await waitFor(() => (fake.calls() > before ? true : undefined));
    gone.abort();
    await pending.catch(() => {});
    const line = await waitFor(() => lines.map((l) => JSON.parse(l) as Record<string, unknown>).find((e) => e.msg === 'request' && e.face === 'trpc' && e.status === 499));
    fake.reset();
    expect(line).toMatchObject({ aborted: true, route: 'search', credits: 0 });
    const [account] = await app.sql<{ b: string }[]>`select credit_balance::text as b from accounts where id = ${accountId}`;
    expect(account!.b).toBe('50');
  });
});
