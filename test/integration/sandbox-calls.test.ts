import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeps } from '../../src/deps.js';
import { createHttpServer } from '../../src/app/server.js';
import { startTestApp, type TestApp } from '../support/app.js';

/**
 * Issue 22 item 4: sandbox calls cost 0 credits and leave no ledger row, yet the console confirms
 * them. REST and MCP calls that delivered an answer are counted in memory (no round trip on the
 * call), written by the batched flush, and read by the console's usage procedure beside the billed
 * series; failed calls are not counted, as the ledger would not have billed them.
 */
let app: TestApp;
let accountId: string;
let key: string;
let session: { cookie: string; csrf: string };

interface Usage { since: string; byOperation: unknown[]; sandboxCalls: { day: string; calls: number }[] }

async function usage(): Promise<Usage> {
  const res = await fetch(`${app.baseUrl}/console/trpc/console.usage`, { headers: { Cookie: session.cookie, 'X-CSRF-Token': session.csrf } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { result: { data: Usage } }).result.data;
}

beforeAll(async () => {
  app = await startTestApp();
  ({ accountId } = await app.deps.admin.createAccount({ email: 'sandbox-count@example.com', plan: 'free', credits: 0, verified: true, password: 'sandbox count 1' }));
  ({ key } = await app.deps.admin.createKey(accountId, 'sandbox'));
  const res = await fetch(`${app.baseUrl}/console/session`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email: 'sandbox-count@example.com', password: 'sandbox count 1' }) });
  expect(res.status).toBe(200);
  session = { cookie: res.headers.get('set-cookie')!.split(';')[0]!, csrf: ((await res.json()) as { csrf: string }).csrf };
});
afterAll(() => app?.close());

describe('sandbox calls in the console', () => {
  it('counts the REST and MCP calls that answered, not the failed ones, once flushed', async () => {
    expect((await usage()).sandboxCalls).toEqual([]);

    // REST: two answers (the second one cached), an empty answer (an unknown place: a live key
    // would pay nothing for it either), one failure, one refused input.
    for (const location of ['Lisbon', 'Lisbon']) expect((await app.get(`/v1/search?location=${location}&limit=3`, key)).status).toBe(200);
    const empty = await app.get('/v1/search?location=Atlantis', key);
    expect(((await empty.json()) as { data: unknown[] }).data).toEqual([]);
    expect((await app.get('/v1/search?location=sandbox:unavailable', key)).status).toBe(503);
    expect((await app.get('/v1/search?location=Lisbon&limit=0', key)).status).toBe(400);

    // MCP: one answer, one failure.
    const client = new Client({ name: 'sandbox-count', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${app.baseUrl}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${key}` } } }));
    const ok = await client.callTool({ name: 'search_stays', arguments: { location: 'Paris', limit: 2 } });
    expect(ok.isError).toBeFalsy();
    const failed = await client.callTool({ name: 'search_stays', arguments: { location: 'sandbox:format-changed' } });
    expect(failed.isError).toBe(true);
    await client.close();

    // Nothing written yet: the calls only added to a counter in memory.
    expect(await app.sql`select 1 from sandbox_calls where account_id = ${accountId}`).toHaveLength(0);
    await app.deps.sandboxCalls.flush();

    const today = app.deps.clock.now().toISOString().slice(0, 10);
    const after = await usage();
    expect(after.sandboxCalls).toEqual([{ day: today, calls: 3 }]);
    expect(after.byOperation).toEqual([]); // free: the ledger holds nothing of them
    expect(await app.sql`select 1 from credit_ledger where account_id = ${accountId} and amount < 0`).toHaveLength(0);

    // Later flushes add to the day's row; a flush with nothing new writes nothing.
    expect((await app.get('/v1/search?location=Porto&limit=2', key)).status).toBe(200);
    await app.deps.sandboxCalls.flush();
    await app.deps.sandboxCalls.flush();
    expect((await usage()).sandboxCalls).toEqual([{ day: today, calls: 4 }]);
  });

  it('a process that stops gracefully writes its last counts before its pool closes', async () => {
    // A second process of the service on the same database, stopped the way shutdown stops it.
    const deps = createDeps(app.deps.config, app.db.url);
    const server = createHttpServer(deps);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/search?location=Madrid&limit=2`, { headers: { Authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const [before] = await app.sql<[{ calls: string }]>`select sum(calls)::text as calls from sandbox_calls where account_id = ${accountId}`;
    expect(before.calls).toBe('4'); // the counts of the first test only: nothing written per call
    await deps.close();
    const [after] = await app.sql<[{ calls: string }]>`select sum(calls)::text as calls from sandbox_calls where account_id = ${accountId}`;
    expect(after.calls).toBe('5');
  });
});
