import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { OAuthServerProvider } from '@modelcontextprotocol/sdk/server/auth/provider.js';
import { Server as McpServer } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createMcpHttp } from '../../src/facades/mcp/http.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { SANDBOX_HOTEL } from '../support/sandbox-hotel.js';

/**
 * Issue 29: a lone tools/call of the legacy era is answered by one long-lived SDK server through
 * our JSON transport, which splices the memoized page's bytes. Every answer must be the bytes and
 * headers the SDK's own transport (a new server per request) gives for the same call: the same
 * calls go through both, with the same request id and clock, and are compared byte for byte.
 */
let app: TestApp;
let server: Server;
let base: string;
let key: string;
let fixedRequestId: string | null = null;
let fixedNow: Date | null = null;
let newRequestId: () => string;

beforeAll(async () => {
  app = await startTestApp();
  const { deps } = app;
  // The only things that differ between two calls: the request id and the clock.
  const requestId = deps.ids.requestId.bind(deps.ids);
  newRequestId = requestId;
  deps.ids.requestId = () => fixedRequestId ?? requestId();
  const now = deps.clock.now.bind(deps.clock);
  deps.clock.now = () => (fixedNow ? new Date(fixedNow) : now());
  const noOAuth = { verifyAccessToken: () => Promise.reject(new Error('API keys only here')) } as unknown as OAuthServerProvider;
  const fast = createMcpHttp(deps, noOAuth);
  const sdk = createMcpHttp(deps, noOAuth, undefined, { sdkTransportOnly: true });
  server = createServer((req, res) => {
    const handler = req.url === '/sdk/mcp' ? sdk : fast;
    void handler(req, res, '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => server?.close(() => resolve()));
  await app?.close();
});
afterEach(() => vi.restoreAllMocks());

interface Raw {
  status: number;
  headers: string[];
  body: Buffer;
}

const HEADERS = { Authorization: '', 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };

function post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { method: 'POST', headers: { ...HEADERS, Authorization: `Bearer ${key}`, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.rawHeaders, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end(typeof body === 'string' ? body : JSON.stringify(body));
  });
}

/** Every header but Date, in the order written, names as written. */
const withoutDate = (headers: string[]) => headers.filter((_, i) => i % 2 === 0 && headers[i] !== 'Date').flatMap((name) => [name, headers[headers.indexOf(name) + 1]!]);

/**
 * The same call through both paths, with the same request id and clock: the fast path's answer,
 * and how many times it used the SDK's transport.
 */
async function both(body: unknown, headers: Record<string, string> = {}): Promise<Raw & { viaSdk: number; viaServer: number }> {
  ({ key } = await app.newKey('sandbox')); // a key of its own: a sandbox key may make 30 calls a minute
  await post('/mcp', body, headers); // warms the caches, so both calls below are the same hits
  fixedNow = new Date();
  fixedRequestId = newRequestId();
  try {
    const viaSdk = vi.spyOn(StreamableHTTPServerTransport.prototype, 'handleRequest');
    // Calls the SDK's server dispatched: none for a call the direct path answers (direct-call.ts).
    const dispatch = vi.spyOn(McpServer.prototype as unknown as { _onrequest: () => void }, '_onrequest');
    const before = viaSdk.mock.calls.length;
    const dispatchedBefore = dispatch.mock.calls.length;
    const fast = await post('/mcp', body, headers);
    const sdkCallsByFast = viaSdk.mock.calls.length - before;
    const dispatchedForFast = dispatch.mock.calls.length - dispatchedBefore;
    const sdk = await post('/sdk/mcp', body, headers);
    expect(viaSdk.mock.calls.length - before - sdkCallsByFast, 'the plain path uses the SDK transport').toBe(1);
    expect(fast.body.toString()).toBe(sdk.body.toString());
    expect(fast.body.equals(sdk.body)).toBe(true);
    expect(fast.status).toBe(sdk.status);
    expect(withoutDate(fast.headers)).toEqual(withoutDate(sdk.headers));
    return Object.assign(fast, { viaSdk: sdkCallsByFast, viaServer: dispatchedForFast });
  } finally {
    fixedNow = null;
    fixedRequestId = null;
  }
}

const toolCall = (name: string, args: unknown, id: string | number = 1, extra: Record<string, unknown> = {}) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, ...extra } });

describe('legacy tools/call answers, fast path against the SDK transport', () => {
  it('are the same bytes for every tool, view and fields=, and take the fast path', async () => {
    const calls: [string, Record<string, unknown>][] = [
      ['search_stays', { location: 'Lisbon', limit: 20 }],
      ['search_stays', { location: 'Lisbon', platforms: ['airbnb', 'vrbo'], limit: 5, view: 'compact' }],
      ['search_stays', { location: 'Porto', limit: 3, fields: 'id,name,location.city' }],
      ['search_stays', { location: 'Lisbon', limit: 4, sort: 'distance_asc', radiusKm: 5 }],
      ['check_availability', { platform: 'airbnb', listingId: '40000012', startDate: '2031-05-01', endDate: '2031-05-08', nights: 2 }],
      ['get_listing', { platform: 'booking', id: 'gb/garden-court' }],
      ['get_listing', { platform: 'booking', id: 'gb/garden-court', view: 'compact' }],
      ['get_price', { platform: 'vrbo', listingId: 6000004, checkIn: '2031-05-01', checkOut: '2031-05-04', children: 1, childAges: [6] }],
      ['compare_prices', { name: SANDBOX_HOTEL, location: 'Lisbon', checkIn: '2031-05-01', checkOut: '2031-05-03' }],
      ['get_reviews', { platform: 'booking', listingId: '2000033', limit: 7, summary: true }],
      ['search_stays', { location: 'Lisbon', limit: 2, dryRun: true }],
    ];
    for (const [name, args] of calls) {
      const answer = await both(toolCall(name, args));
      expect(answer.status, name).toBe(200);
      expect(answer.viaSdk, `${name} took the fast path`).toBe(0);
      expect(answer.viaServer, `${name} was answered without the SDK's server`).toBe(0);
      const result = JSON.parse(answer.body.toString()).result;
      expect(result.isError, `${name}: ${answer.body.toString().slice(0, 300)}`).toBeUndefined();
    }
  });

  it('are the same bytes for a cached page whose text has quotes, non-ASCII and line breaks', async () => {
    // Lyon's sandbox pages carry names with accents and ’; the text escapes its quotes inside a JSON string.
    const answer = await both(toolCall('search_stays', { location: 'Lyon', limit: 20 }, 'call-ü"1'));
    const text = answer.body.toString();
    expect(text).toContain('"id":"call-ü\\"1"');
    const result = JSON.parse(text).result;
    expect(result.isError, text.slice(0, 300)).toBeUndefined();
    expect(result.content[0].text).toMatch(/[^\x00-\x7f]/);
  });

  it('are the same bytes for tool errors, sandbox triggers and protocol errors', async () => {
    // Tool errors (isError results) on the direct path go through the SDK's result parse, as the
    // SDK's server sends them (its key order); an unknown tool and _meta go to the SDK's server.
    const cases: [unknown, 'direct' | 'server'][] = [
      [toolCall('search_stays', { location: 'Lisbon', limit: 500 }), 'direct'],
      [toolCall('get_listing', { platform: 'airbnb', id: 'sandbox-missing' }), 'direct'],
      [toolCall('get_job', { jobId: 'job_missing' }), 'direct'],
      [toolCall('search_stays', { location: 'sandbox:partial', limit: 3 }), 'direct'],
      [toolCall('search_stays', { location: 'sandbox:unavailable', limit: 3 }), 'direct'],
      [toolCall('no_such_tool', {}), 'server'],
      [toolCall('search_stays', { location: 'Lisbon' }, 0), 'direct'],
      [toolCall('search_stays', { location: 'Lisbon' }, 'text-id'), 'direct'],
      [toolCall('search_stays', { location: 'Lisbon' }, 7, { _meta: { note: 'kept by the SDK, ignored by us' } }), 'server'],
    ];
    for (const [body, path] of cases) {
      const answer = await both(body);
      expect([answer.viaSdk, answer.viaServer], JSON.stringify(body)).toEqual([0, path === 'direct' ? 0 : 1]);
    }
  });

  it('leave to the SDK transport what it alone answers, with its answers', async () => {
    const call = toolCall('search_stays', { location: 'Lisbon', limit: 2 });
    const cases: [unknown, Record<string, string>, 'fast' | 'sdk'][] = [
      [call, { Accept: 'application/json' }, 'sdk'], // 406
      [call, { 'Content-Type': 'application/vnd.test+json' }, 'sdk'], // 415 (we read it; the SDK refuses it)
      [call, { 'Content-Type': 'application/json; charset=utf-8' }, 'fast'],
      [call, { 'Content-Type': ['application/json', 'text/plain'] as unknown as string }, 'sdk'], // two lines: node keeps one, the SDK joins them
      [call, { Host: 'LOCALHOST:3000' }, 'fast'], // Hosts the SDK's node adapter reads through new URL()
      [call, { Host: '127.0.0.1:65000' }, 'fast'],
      [call, { 'MCP-Protocol-Version': '1999-01-01' }, 'sdk'], // 400, unsupported version
      [call, { 'MCP-Protocol-Version': '2025-06-18' }, 'fast'],
      [{ ...call, params: { ...call.params, _meta: { progressToken: 'p1' } } }, {}, 'sdk'], // SSE
      [{ ...call, params: { ...call.params, task: { ttl: 60_000 } } }, {}, 'sdk'], // a task
      [[call, toolCall('get_job', { jobId: 'job_missing' }, 2)], {}, 'sdk'], // a batch
      [toolCall('search_stays', 'Lisbon'), {}, 'sdk'], // malformed: -32602 naming arguments (guards.ts)
      [[call, toolCall('search_stays', ['Lisbon'], 2)], {}, 'sdk'], // a 2025-03-26 batch with a malformed member: both answered
      [{ jsonrpc: '2.0', method: 'tools/call', params: { name: 'search_stays', arguments: 'Lisbon' } }, {}, 'sdk'], // a notification: 202
      [{ ...call, params: { ...call.params, _meta: 'not an object' } }, {}, 'sdk'], // not a JSON-RPC message
      [{ jsonrpc: '2.0', method: 'notifications/initialized' }, {}, 'sdk'], // 202
      [{ jsonrpc: '2.0', id: 1, method: 'tools/list' }, {}, 'sdk'],
      [{ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } }, {}, 'sdk'],
    ];
    for (const [body, headers, path] of cases) {
      const answer = await both(body, headers);
      expect(answer.viaSdk, `${JSON.stringify(body)} ${JSON.stringify(headers)}`).toBe(path === 'sdk' ? 1 : 0);
    }
  });

  it('are the same bytes whether the arguments were parsed afresh or remembered, from one account or two', async () => {
    // The validated arguments are remembered per tool by their JSON text (facades/input-memo.ts):
    // the same arguments in another key order are another text, so parsed afresh; a repeated text is
    // a remembered (frozen, shared) parse. Every answer must be the same bytes, whoever sends it.
    const [{ key: first }, { key: second }] = [await app.newKey('sandbox'), await app.newKey('sandbox')];
    const text = (args: string) => `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"search_stays","arguments":${args}}}`;
    const [a, b, c] = ['{"location":"Lisbon","limit":6,"radiusKm":9}', '{"radiusKm":9,"limit":6,"location":"Lisbon"}', '{"limit":6,"location":"Lisbon","radiusKm":9}'];
    key = first;
    await post('/mcp', text(c)); // warms the page cache
    fixedNow = new Date();
    fixedRequestId = newRequestId();
    try {
      const bodies: Buffer[] = [];
      for (const [account, args, path] of [[first, a, '/mcp'], [first, a, '/mcp'], [second, a, '/mcp'], [second, b, '/sdk/mcp'], [first, b, '/mcp'], [second, a, '/sdk/mcp']] as const) {
        key = account;
        const answer = await post(path, text(args));
        expect(answer.status).toBe(200);
        bodies.push(answer.body);
      }
      expect(JSON.parse(bodies[0]!.toString()).result.isError, bodies[0]!.toString().slice(0, 300)).toBeUndefined();
      for (const body of bodies.slice(1)) expect(body.toString()).toBe(bodies[0]!.toString());
    } finally {
      fixedNow = null;
      fixedRequestId = null;
    }
  });

  it('reach the shared server through its request dispatch, which the pinned SDK has', async () => {
    // json-answer-transport.ts calls the SDK Protocol's _onrequest: an SDK without it would still
    // answer (through onmessage) but slower, so an upgrade must look at this line.
    const answer = await both(toolCall('search_stays', { location: 'Lisbon', limit: 3 }, 9, { _meta: { note: 'not the direct shape' } }));
    expect(answer.viaSdk).toBe(0);
    expect(answer.viaServer).toBe(1);
  });

  it('answer directly only the exact call shape, and every near miss as the SDK does', async () => {
    // direct-call.ts takes { jsonrpc, id, method, params: { name, arguments? } } and nothing more,
    // with an id the SDK takes, a tool we have and object arguments; every other plain call goes to
    // the SDK's server, whose parse refuses what it must. Each answer is the SDK's bytes either way.
    // (Arguments that are not an object and names that are not strings go to the SDK's transport,
    // which answers them as guards.ts words them: the test above.)
    const args = { location: 'Lisbon', limit: 2 };
    const text = (id: string, params = `{"name":"search_stays","arguments":{"location":"Lisbon","limit":2}}`) => `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":${params}}`;
    const cases: [unknown, 'direct' | 'server' | 'sdk'][] = [
      [toolCall('search_stays', args, ''), 'direct'],
      [toolCall('search_stays', args, Number.MAX_SAFE_INTEGER), 'direct'],
      [toolCall('search_stays', args, -Number.MAX_SAFE_INTEGER), 'direct'],
      [text('-0'), 'direct'],
      [{ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'search_stays' } }, 'direct'], // no arguments: a 400 naming location
      [{ params: { name: 'search_stays', arguments: args }, method: 'tools/call', id: 4, jsonrpc: '2.0' }, 'direct'], // key order is free
      [text('2e0'), 'direct'],
      [text('1.5'), 'sdk'], // not an id the SDK takes: not a JSON-RPC request, answered by its transport
      [text('9007199254740993'), 'sdk'],
      [text('null'), 'sdk'],
      [{ ...toolCall('search_stays', args), extra: true }, 'sdk'], // the SDK's request schema is strict
      [toolCall('search_stays', args, 5, { other: 1 }), 'server'], // params are loose: the SDK's server answers it
      [toolCall('no_such_tool', args), 'server'],
      [toolCall('__proto__', args), 'server'],
      [text('8', '{"name":"search_stays","arguments":{"__proto__":{"limit":1},"location":"Lisbon"}}'), 'direct'],
    ];
    for (const [body, path] of cases) {
      const answer = await both(body);
      const label = typeof body === 'string' ? body : JSON.stringify(body);
      expect([answer.viaSdk, answer.viaServer], label).toEqual(path === 'direct' ? [0, 0] : path === 'server' ? [0, 1] : [1, 0]);
    }
  });
});
