import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_ASYNC_JOB_MS } from '../../src/adapters/platforms/sandbox/adapter.js';
import { startTestApp, type TestApp } from '../support/app.js';

/**
 * The MCP transport and what a model reads (issue 11, items 10 to 15): Origin checks, 405 for GET,
 * standard short protocol errors, JSON in the text content, schemas a strict validator compiles,
 * and job estimates that match what the sandbox does. Real HTTP and the SDK client.
 */
let app: TestApp;
let key: string;
beforeAll(async () => {
  app = await startTestApp({ worker: true, config: { mcpAllowedOrigins: ['https://console.example.com'] } });
  ({ key } = await app.newKey('sandbox'));
});
afterAll(() => app.close());

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

async function connect(): Promise<Client> {
  const client = new Client({ name: 'protocol-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${app.baseUrl}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${key}` } } }));
  return client;
}

function rpc(body: unknown, headers: Record<string, string> = {}, method = 'POST'): Promise<Response> {
  return fetch(`${app.baseUrl}/mcp`, {
    method,
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers },
    ...(method === 'POST' ? { body: JSON.stringify(body) } : {}),
  });
}

const list = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
type ToolResult = { isError?: boolean; content: { type: string; text: string }[]; structuredContent?: { data: Record<string, unknown>; meta: Record<string, unknown> } };

describe('transport', () => {
  it('item 10: refuses a foreign Origin with 403, allows ours, loopback, configured ones and none', async () => {
    const evil = await rpc(list, { Origin: 'https://evil.example.com' });
    expect(evil.status).toBe(403);
    expect(((await evil.json()) as { error: { message: string } }).error.message).toMatch(/Origin/);
    expect((await rpc(list, { Origin: 'null' })).status).toBe(403);
    for (const origin of [app.baseUrl, 'http://localhost:5173', 'http://127.0.0.1:6274', 'https://console.example.com']) {
      expect((await rpc(list, { Origin: origin })).status, origin).toBe(200);
    }
    expect((await rpc(list)).status).toBe(200);
  });

  it('item 10: bound to loopback, a rebound Host name is refused; loopback and the public host are served', async () => {
    const { request } = await import('node:http');
    const call = (host: string) =>
      new Promise<number>((resolve, reject) => {
        const url = new URL(`${app.baseUrl}/mcp`);
        const req = request({ host: url.hostname, port: url.port, path: '/mcp', method: 'POST', headers: { Host: host, Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' } }, (res) => {
          res.resume();
          resolve(res.statusCode!);
        });
        req.on('error', reject);
        req.end(JSON.stringify(list));
      });
    expect(await call('evil.example.com')).toBe(403);
    expect(await call('attacker.example:3000')).toBe(403);
    expect(await call(new URL(app.baseUrl).host)).toBe(200);
    expect(await call('localhost:1234')).toBe(200);
    expect(await call('console.example.com')).toBe(200); // the host of a configured origin
  });

  it('item 11: GET and DELETE answer 405 with Allow: POST (no idle SSE stream), even before auth', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await rpc(undefined, { Accept: 'text/event-stream' }, method);
      expect(res.status, method).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
      expect(res.headers.get('content-type')).toMatch(/json/);
    }
    const anonymous = await fetch(`${app.baseUrl}/mcp`, { headers: { Accept: 'text/event-stream' } });
    expect(anonymous.status).toBe(405);
  });

  it('item 11: SDK clients take the 405 as "no standalone stream" and work on', async () => {
    const clients = await Promise.all([1, 2, 3, 4, 5].map(() => connect()));
    for (const c of clients) expect((await c.listTools()).tools).toHaveLength(7);
    await Promise.all(clients.map((c) => c.close()));
  });
});

describe('protocol errors', () => {
  it('item 12: non-object arguments are -32602 naming arguments, without a zod dump', async () => {
    for (const args of ['x', 42, null, ['a']]) {
      const res = await rpc({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'search_stays', arguments: args } });
      const body = (await res.json()) as { id: number; error: { code: number; message: string } };
      expect(body.id).toBe(7);
      expect(body.error.code).toBe(-32602);
      expect(body.error.message).toMatch(/^Invalid params: arguments must be an object/);
      expect(body.error.message).not.toMatch(/\[|expected/);
    }
  });

  it('item 12: an unknown tool is one -32602 message, not a doubled prefix', async () => {
    const client = await connect();
    const err = (await client.callTool({ name: 'drop_tables', arguments: {} }).catch((e: unknown) => e)) as { code: number; message: string };
    expect(err.code).toBe(-32602);
    expect(err.message.match(/MCP error/g)).toHaveLength(1);
    expect(err.message).toContain('Unknown tool: "drop_tables"');
    await client.close();
  });

  it('item 14: adults "two" is a tool error naming adults and what was received', async () => {
    const client = await connect();
    const r = (await client.callTool({ name: 'get_price', arguments: { platform: 'airbnb', listingId: '1', checkIn: '2031-05-01', checkOut: '2031-05-03', adults: 'two' } })) as ToolResult;
    expect(r.isError).toBe(true);
    const error = JSON.parse(r.content[0]!.text).error as { code: string; param: string; message: string };
    expect(error).toMatchObject({ code: 'invalid_request', param: 'adults' });
    expect(error.message).not.toMatch(/received null/);
    expect(error.message).toMatch(/number/);
    await client.close();
  });
});

describe('what the model reads', () => {
  it('item 13: text content is a summary line, then the whole result as compact JSON', async () => {
    const client = await connect();
    const r = (await client.callTool({ name: 'search_stays', arguments: { location: 'Lisbon', limit: 3 } })) as ToolResult;
    const [summary, json] = r.content[0]!.text.split('\n');
    expect(summary).toMatch(/^Search stays: 3 item\(s\), 0 credit\(s\) charged\./);
    expect(JSON.parse(json!)).toEqual(r.structuredContent);
    expect(json).not.toContain('\n  ');
    await client.close();
  });

  it('item 13 and 15: get_job text states the status, then the result; the estimate is what the sandbox takes', async () => {
    const client = await connect();
    const accepted = (await client.callTool({ name: 'search_stays', arguments: { location: 'sandbox:async', platforms: ['booking'] } })) as ToolResult;
    const handle = accepted.structuredContent!.data as { jobId: string; estimatedSeconds: number };
    expect(handle.estimatedSeconds).toBe(Math.ceil(SANDBOX_ASYNC_JOB_MS / 1000));
    expect(accepted.content[0]!.text).toMatch(new RegExp(`^Accepted as job ${handle.jobId}, status pending`));
    let polled: ToolResult | undefined;
    for (let i = 0; i < 80; i++) {
      polled = (await client.callTool({ name: 'get_job', arguments: { jobId: handle.jobId } })) as ToolResult;
      const status = (polled.structuredContent!.data as { status: string }).status;
      if (status === 'completed') break;
      expect(polled.content[0]!.text).toMatch(new RegExp(`^Job ${handle.jobId} is (pending|running), about \\d+ s left`));
      await new Promise((r) => setTimeout(r, 150));
    }
    const [line, json] = polled!.content[0]!.text.split('\n');
    expect(line).toBe(`Job ${handle.jobId} is completed; data.result holds the result.`);
    const parsed = JSON.parse(json!) as { data: { result: unknown[] } };
    expect(parsed.data.result.length).toBeGreaterThan(0);
    await client.close();
  });

  it('item 14: every input and output schema compiles under strict Ajv (examples, not example)', async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    const ajv = addFormats(new Ajv2020({ strict: true, allErrors: true }));
    for (const tool of tools) {
      expect(() => ajv.compile(tool.inputSchema), `${tool.name} input`).not.toThrow();
      if (tool.outputSchema) expect(() => ajv.compile(tool.outputSchema!), `${tool.name} output`).not.toThrow();
      expect(JSON.stringify(tool.inputSchema)).not.toContain('"example"');
    }
    const price = tools.find((t) => t.name === 'get_price')!;
    // Examples, where a schema carries any, are JSON Schema's `examples` array.
    const checkIn = (price.inputSchema.properties as Record<string, { examples?: unknown }>).checkIn!;
    expect(checkIn.examples === undefined || Array.isArray(checkIn.examples)).toBe(true);
    await client.close();
  });
});
