import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

/**
 * JSON-RPC on `/mcp` as the MCP revisions have it (issue 34, item 3), with raw HTTP and with the
 * SDK 1.x client after it has listed the tools: every member of a 2025-03-26 batch answered,
 * later revisions' batches refused whole, notifications answered 202 with no body, the modern
 * era's version and header checks before argument checks, transport refusals worded as the
 * SDK's transport words them, and JSON (never Express's HTML) on every `/.well-known/` path.
 */
let app: TestApp;
let key: string;
beforeAll(async () => {
  app = await startTestApp({});
  ({ key } = await app.newKey('sandbox'));
});
afterAll(() => app.close());

const HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };

/** A raw POST to /mcp; `body` goes as it is when a string. */
function post(body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${app.baseUrl}/mcp`, { method: 'POST', headers: { Authorization: `Bearer ${key}`, ...HEADERS, ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) });
}

/** An SDK 1.x client that has initialized and listed the tools, as a real client starts. */
async function listedClient(): Promise<Client> {
  const client = new Client({ name: 'jsonrpc-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${app.baseUrl}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${key}` } } }));
  expect((await client.listTools()).tools.length).toBeGreaterThan(0);
  return client;
}

type RpcAnswer = { jsonrpc: '2.0'; id: string | number | null; result?: Record<string, unknown>; error?: { code: number; message: string; data?: unknown } };

describe('/.well-known/', () => {
  it('answers a JSON 404 on every path it does not publish, the OAuth names included', async () => {
    for (const path of ['/.well-known/foo', '/.well-known/oauth-authorization-server/extra', '/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/foo', '/.well-known/oauth-foo', '/.well-known/openid-configuration']) {
      const res = await app.get(path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type'), path).toMatch(/^application\/json/);
      const body = (await res.json()) as { error: { code: string; message: string } };
      expect(body.error.code, path).toBe('not_found');
      expect(body.error.message, path).toContain(path);
    }
  });

  it('still serves the metadata it publishes', async () => {
    for (const path of ['/.well-known/oauth-authorization-server', '/.well-known/oauth-protected-resource/mcp', '/.well-known/mcp.json']) {
      const res = await app.get(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type'), path).toMatch(/^application\/json/);
    }
  });
});

describe('transport refusals, as the SDK transport words them', () => {
  it('a Content-Type other than JSON is 415 with -32000', async () => {
    const res = await post({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { 'Content-Type': 'text/plain' });
    expect(res.status).toBe(415);
    expect(await res.json()).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Unsupported Media Type: Content-Type must be application/json' } });
  });

  it('a body over 100 kB is 413 with -32000 naming the limit, through the SDK client and raw', async () => {
    const client = await listedClient();
    const err = (await client.callTool({ name: 'search_stays', arguments: { location: 'x'.repeat(120_000) } }).catch((e: unknown) => e)) as Error & { code: number };
    expect(err.code).toBe(413);
    expect(err.message).toContain('{"code":-32000,"message":"Payload Too Large: Request body must not exceed 100000 bytes"}');
    // The client and the server are still in step: the next call is answered.
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    await client.close();

    const res = await post({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search_stays', arguments: { location: 'x'.repeat(120_000) } } });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Payload Too Large: Request body must not exceed 100000 bytes' } });
  });

  it('a body that is not JSON is 400 with -32700', async () => {
    const res = await post('{"jsonrpc": "2.0",');
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error: Invalid JSON' } });
  });
});
