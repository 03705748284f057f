import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
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

/** An SDK 1.x client that has initialized and listed the tools, as a real client starts; `fetch` sees its HTTP. */
async function listedClient(fetchVia: typeof fetch = fetch): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const client = new Client({ name: 'jsonrpc-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${app.baseUrl}/mcp`), { fetch: fetchVia, requestInit: { headers: { Authorization: `Bearer ${key}` } } });
  await client.connect(transport);
  expect((await client.listTools()).tools.length).toBeGreaterThan(0);
  return { client, transport };
}

/** Sends `messages` on the client's own transport and collects the answers it reads for them. */
async function sendThrough(transport: StreamableHTTPClientTransport, messages: JSONRPCMessage | JSONRPCMessage[]): Promise<JSONRPCMessage[]> {
  const answers: JSONRPCMessage[] = [];
  const clientsOwn = transport.onmessage!;
  transport.onmessage = (message: JSONRPCMessage) => {
    if ('id' in message && typeof message.id === 'string' && message.id.startsWith('raw-')) answers.push(message);
    else clientsOwn(message);
  };
  try {
    await transport.send(messages as JSONRPCMessage);
  } finally {
    transport.onmessage = clientsOwn;
  }
  return answers;
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
    const { client } = await listedClient();
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

const tools = { jsonrpc: '2.0' as const, id: 'raw-1', method: 'tools/list' };
const malformed = { jsonrpc: '2.0' as const, id: 'raw-2', method: 'tools/call', params: { name: 'search_stays', arguments: 'Lisbon' } };
const valid = { jsonrpc: '2.0' as const, id: 'raw-3', method: 'tools/call', params: { name: 'get_job', arguments: { jobId: 'job_01ARZ3NDEKTSV4RRFFQ69G5FAV' } } };
const argumentsRefusal = { code: -32602, message: 'Invalid params: arguments must be an object, not string.' };

describe('a 2025-03-26 batch: every member answered', () => {
  it('raw: a malformed tools/call among valid members gets its -32602 in the batch answer, beside theirs', async () => {
    for (const headers of [{}, { 'MCP-Protocol-Version': '2025-03-26' }] as Record<string, string>[]) {
      const res = await post([tools, malformed, valid], headers);
      expect(res.status).toBe(200);
      const answers = (await res.json()) as RpcAnswer[];
      expect(answers.map((a) => a.id)).toEqual(['raw-1', 'raw-2', 'raw-3']);
      expect(answers[0]!.result!.tools).toHaveLength(7);
      expect(answers[1]!.error).toEqual(argumentsRefusal);
      // get_job of an unknown job: a tool error carrying the REST error body, answered in its place.
      expect(answers[2]!.result).toMatchObject({ isError: true });
    }
  });

  it('the SDK client, after listing tools, sends such a batch on its transport and reads every answer', async () => {
    const { client, transport } = await listedClient();
    transport.setProtocolVersion('2025-03-26'); // as a client that negotiated 2025-03-26 sends it
    const answers = (await sendThrough(transport, [malformed, valid])) as RpcAnswer[];
    expect(answers.map((a) => a.id)).toEqual(['raw-2', 'raw-3']);
    expect(answers[0]!.error).toEqual(argumentsRefusal);
    expect(answers[1]!.result).toMatchObject({ isError: true });
    await client.close();
  });

  it('raw: a batch whose requests share an id is refused whole with -32600 naming the id, as their answers could not be told apart', async () => {
    const res = await post([{ ...valid, id: 'raw-1' }, { ...malformed, id: 'raw-1' }]);
    expect(res.status).toBe(400);
    const body = (await res.json()) as RpcAnswer;
    expect(body.id).toBeNull();
    expect(body.error!.code).toBe(-32600);
    expect(body.error!.message).toContain('two requests of the batch have the id "raw-1"');
  });

  it('a lone malformed call is still -32602 naming the field, on a 200', async () => {
    const res = await post(malformed);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ jsonrpc: '2.0', id: 'raw-2', error: argumentsRefusal });
  });
});

describe('notifications', () => {
  it('raw: a notification is 202 with no body, a malformed tools/call one included', async () => {
    for (const notification of [{ jsonrpc: '2.0', method: 'tools/call', params: { name: 'search_stays', arguments: 'Lisbon' } }, { jsonrpc: '2.0', method: 'tools/call', params: {} }, { jsonrpc: '2.0', method: 'notifications/initialized' }]) {
      const res = await post(notification);
      expect(res.status, JSON.stringify(notification)).toBe(202);
      expect(await res.text()).toBe('');
    }
  });

  it('the SDK client, after listing tools, has its notification accepted with 202', async () => {
    const statuses: number[] = [];
    const recording: typeof fetch = async (url, init) => {
      const res = await fetch(url, init);
      if (init?.method === 'POST' && !String(init.body).includes('"id"')) statuses.push(res.status);
      return res;
    };
    const { client, transport } = await listedClient(recording);
    statuses.length = 0;
    await transport.send({ jsonrpc: '2.0', method: 'tools/call', params: { name: 'search_stays', arguments: 'Lisbon' } } as unknown as JSONRPCMessage);
    expect(statuses).toEqual([202]);
    await client.close();
  });
});

describe('the modern era: its checks before argument checks', () => {
  const MODERN = '2026-07-28';
  const envelope = (version: string) => ({ 'io.modelcontextprotocol/protocolVersion': version, 'io.modelcontextprotocol/clientInfo': { name: 'raw-http-client', version: '1.0.0' }, 'io.modelcontextprotocol/clientCapabilities': {} });
  const call = (version: string) => ({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'search_stays', arguments: 'Lisbon', _meta: envelope(version) } });
  const mirrored = (version: string, name = 'search_stays') => ({ 'MCP-Protocol-Version': version, 'Mcp-Method': 'tools/call', 'Mcp-Name': name });

  it('an unsupported version with bad arguments is 400 -32022', async () => {
    const res = await post(call('1900-01-01'), mirrored('1900-01-01'));
    expect(res.status).toBe(400);
    const body = (await res.json()) as RpcAnswer;
    expect(body.error).toMatchObject({ code: -32022, data: { supported: [MODERN], requested: '1900-01-01' } });
  });

  it('headers that disagree with the body, with bad arguments, are 400 -32020', async () => {
    const res = await post(call(MODERN), mirrored(MODERN, 'get_job'));
    expect(res.status).toBe(400);
    expect(((await res.json()) as RpcAnswer).error!.code).toBe(-32020);
  });

  it('with the envelope in order, bad arguments are -32602 naming the field, as in the legacy era', async () => {
    const res = await post(call(MODERN), mirrored(MODERN));
    expect(res.status).toBe(200);
    expect(((await res.json()) as RpcAnswer).error).toEqual({ code: -32602, message: 'Invalid params: arguments must be an object, not string.' });
  });
});

describe('batches in later revisions: refused whole', () => {
  it('raw: a batch under 2025-06-18 or 2025-11-25 is 400 with -32600 naming the revision', async () => {
    for (const version of ['2025-06-18', '2025-11-25']) {
      const res = await post([tools, valid], { 'MCP-Protocol-Version': version });
      expect(res.status, version).toBe(400);
      const body = (await res.json()) as RpcAnswer;
      expect(body.id).toBeNull();
      expect(body.error!.code).toBe(-32600);
      expect(body.error!.message).toContain(`MCP ${version} has no JSON-RPC batches`);
    }
  });

  it('raw: an empty batch is 400 with -32600 in every revision', async () => {
    for (const headers of [{}, { 'MCP-Protocol-Version': '2025-03-26' }, { 'MCP-Protocol-Version': '2025-11-25' }] as Record<string, string>[]) {
      const res = await post([], headers);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request: the batch is empty.' } });
    }
  });

  it('the SDK client, after listing tools (2025-11-25), has a batch refused at once with -32600, not left waiting', async () => {
    const { client, transport } = await listedClient();
    const err = (await sendThrough(transport, [tools, valid]).catch((e: unknown) => e)) as Error & { code: number };
    expect(err.code).toBe(400);
    expect(err.message).toContain('"code":-32600');
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    await client.close();
  });
});
