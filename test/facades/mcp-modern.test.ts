import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

/**
 * The modern era of /mcp (revision 2026-07-28), with raw HTTP requests written from the
 * revision's text (basic/versioning.mdx, basic/transports/streamable-http.mdx): no initialize,
 * the version in `params._meta` and in MCP-Protocol-Version, Mcp-Method on every request and
 * Mcp-Name on tools/call. Beside it, a legacy client (the SDK 1.x, with initialize) on the same
 * endpoint at the same time.
 */
let app: TestApp;
let key: string;
beforeAll(async () => {
  app = await startTestApp({ worker: true });
  ({ key } = await app.newKey('sandbox'));
});
afterAll(() => app.close());

const MODERN = '2026-07-28';
const envelope = (version = MODERN) => ({
  'io.modelcontextprotocol/protocolVersion': version,
  'io.modelcontextprotocol/clientInfo': { name: 'raw-http-client', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
});

interface ModernCall {
  method: string;
  params?: Record<string, unknown>;
  id?: number | null;
  version?: string;
  headers?: Record<string, string>;
  meta?: Record<string, unknown>;
}

/** One modern request as the revision describes it; `headers` overrides or removes (empty string) the mirrored ones. */
async function modern({ method, params = {}, id = 1, version = MODERN, headers = {}, meta = {} }: ModernCall): Promise<Response> {
  const name: Record<string, string> = method === 'tools/call' ? { 'Mcp-Name': String(params.name) } : {};
  const all: Record<string, string> = { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'MCP-Protocol-Version': version, 'Mcp-Method': method, ...name, ...headers };
  for (const [k, v] of Object.entries(all)) if (v === '') delete all[k];
  const body = { jsonrpc: '2.0', ...(id === null ? {} : { id }), method, params: { ...params, _meta: { ...envelope(version), ...meta } } };
  return fetch(`${app.baseUrl}/mcp`, { method: 'POST', headers: all, body: JSON.stringify(body) });
}

type Rpc = { jsonrpc: '2.0'; id: number | null; result?: Record<string, any>; error?: { code: number; message: string; data?: any } }; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('modern requests, no initialize', () => {
  it('server/discover names our versions, capabilities, server info with icons, and instructions', async () => {
    const res = await modern({ method: 'server/discover' });
    expect(res.status).toBe(200);
    const { result } = (await res.json()) as Rpc;
    expect(result!.supportedVersions).toContain(MODERN);
    expect(result!.capabilities).toMatchObject({ tools: {} });
    expect(result!.instructions).toMatch(/search_stays/);
    const info = result!._meta!['io.modelcontextprotocol/serverInfo'];
    expect(info).toMatchObject({ name: 'accommodation-data-service', title: 'Accommodation Data Service' });
    expect(info.icons).toEqual([{ src: `${app.baseUrl}/icon.svg`, mimeType: 'image/svg+xml', sizes: ['any'] }]);
    const icon = await fetch(info.icons[0].src);
    expect(icon.headers.get('content-type')).toBe('image/svg+xml');
    expect(await icon.text()).toMatch(/^<svg /);
  });

  it('tools/list: the seven tools in their fixed order with icons and a cache hint, the same objects the legacy era lists', async () => {
    const res = await modern({ method: 'tools/list' });
    expect(res.status).toBe(200);
    const { result } = (await res.json()) as Rpc;
    const names = result!.tools.map((t: { name: string }) => t.name);
    expect(names).toEqual(['search_stays', 'check_availability', 'get_listing', 'get_price', 'compare_prices', 'get_reviews', 'get_job']);
    expect(result!.ttlMs).toBeGreaterThan(0);
    expect(result!.cacheScope).toBe('public');
    for (const tool of result!.tools) expect(tool.icons, tool.name).toEqual([{ src: `${app.baseUrl}/icon.svg`, mimeType: 'image/svg+xml', sizes: ['any'] }]);

    const again = (await (await modern({ method: 'tools/list' })).json()) as Rpc;
    expect(again.result!.tools).toEqual(result!.tools);

    const legacy = new Client({ name: 'legacy-client', version: '1.0.0' });
    await legacy.connect(new StreamableHTTPClientTransport(new URL(`${app.baseUrl}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${key}` } } }));
    const { tools } = await legacy.listTools();
    // Legacy clients may also run a data tool as a task (SDK 1.x experimental Tasks); nothing else differs.
    expect(tools.map(({ execution: _execution, ...t }) => t)).toEqual(result!.tools);
    expect(legacy.getServerVersion()).toMatchObject({ name: 'accommodation-data-service', icons: info(result!) });
    await legacy.close();
  });

  it('tools/call runs the same procedure as REST, and takes a numeric listing id', async () => {
    const res = await modern({ method: 'tools/call', params: { name: 'search_stays', arguments: { location: 'Lisbon', limit: 3 } } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    const { result } = (await res.json()) as Rpc;
    expect(result!.isError).toBeFalsy();
    const viaRest = (await (await app.get('/v1/search?location=Lisbon&limit=3', key)).json()) as { data: unknown };
    expect(result!.structuredContent.data).toEqual(viaRest.data);
    expect(result!.content[0].text).toMatch(/^Search stays: 3 item\(s\)/);

    const price = await modern({ method: 'tools/call', params: { name: 'get_price', arguments: { platform: 'vrbo', listingId: 6000004, checkIn: '2031-05-01', checkOut: '2031-05-04' } } });
    expect(((await price.json()) as Rpc).result!.structuredContent.data.listingId).toBe('6000004');
  });

  it('a tool error carries the REST error body; an unknown tool is -32602', async () => {
    const bad = (await (await modern({ method: 'tools/call', params: { name: 'search_stays', arguments: { location: 'Lisbon', limit: 0 } } })).json()) as Rpc;
    expect(bad.result!.isError).toBe(true);
    expect(JSON.parse(bad.result!.content[0].text).error).toMatchObject({ code: 'limit_out_of_range', param: 'limit' });
    const unknown = (await (await modern({ method: 'tools/call', params: { name: 'nope', arguments: {} } })).json()) as Rpc;
    expect(unknown.error).toMatchObject({ code: -32602, message: expect.stringMatching(/Unknown tool/) });
  });

  it('a slow call answers the job handle, and get_job (free) finishes it', async () => {
    const slow = { location: 'sandbox:async', limit: 2 };
    const first = (await (await modern({ method: 'tools/call', params: { name: 'search_stays', arguments: slow } })).json()) as Rpc;
    const jobId = first.result!.structuredContent.data.jobId as string;
    expect(jobId).toMatch(/^job_/);
    let status = 'pending';
    for (let i = 0; i < 60 && status !== 'completed'; i++) {
      await new Promise((r) => setTimeout(r, 250));
      const polled = (await (await modern({ method: 'tools/call', params: { name: 'get_job', arguments: { jobId } } })).json()) as Rpc;
      status = polled.result!.structuredContent.data.status;
      expect(polled.result!.structuredContent.meta.creditsCharged).toBe(0);
    }
    expect(status).toBe('completed');
  });

  it('with a progressToken: an SSE stream scoped to the request, progress first, then the result', async () => {
    const res = await modern({ method: 'tools/call', params: { name: 'search_stays', arguments: { location: 'Paris', platforms: ['airbnb', 'vrbo'], limit: 2 } }, meta: { progressToken: 'p1' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
    expect(res.headers.get('x-accel-buffering')).toBe('no');
    const events = (await res.text()).split('\n').filter((l) => l.startsWith('data: ')).map((l) => JSON.parse(l.slice(6)) as Rpc & { method?: string; params?: { progress: number; total: number } });
    const progress = events.filter((e) => e.method === 'notifications/progress');
    expect(progress.map((p) => [p.params!.progress, p.params!.total])).toEqual([[1, 2], [2, 2]]);
    expect(events.at(-1)!.id).toBe(1);
    expect(Array.isArray(events.at(-1)!.result!.structuredContent.data)).toBe(true);
  });
});

describe('modern errors a client recognises', () => {
  it('an unsupported version (1900-01-01) is 400 with -32022, the versions we serve and the one asked for', async () => {
    const res = await modern({ method: 'tools/list', version: '1900-01-01' });
    expect(res.status).toBe(400);
    const { error } = (await res.json()) as Rpc;
    expect(error!.code).toBe(-32022);
    expect(error!.data.supported).toContain(MODERN);
    expect(error!.data.requested).toBe('1900-01-01');
  });

  it('headers that disagree with the body, or are missing, are 400 with HeaderMismatch (-32020)', async () => {
    const cases: ModernCall[] = [
      { method: 'tools/list', headers: { 'Mcp-Method': 'tools/call' } },
      { method: 'tools/list', headers: { 'Mcp-Method': '' } },
      { method: 'tools/list', headers: { 'MCP-Protocol-Version': '2026-08-01' } },
      { method: 'tools/call', params: { name: 'search_stays', arguments: { location: 'Lisbon' } }, headers: { 'Mcp-Name': 'get_job' } },
      { method: 'tools/call', params: { name: 'search_stays', arguments: { location: 'Lisbon' } }, headers: { 'Mcp-Name': '' } },
    ];
    for (const c of cases) {
      const res = await modern(c);
      expect(res.status, JSON.stringify(c.headers)).toBe(400);
      expect(((await res.json()) as Rpc).error!.code, JSON.stringify(c.headers)).toBe(-32020);
    }
    // The base64 sentinel form of Mcp-Name is decoded before the comparison.
    const encoded = await modern({ method: 'tools/call', params: { name: 'get_job', arguments: { jobId: 'job_01ARZ3NDEKTSV4RRFFQ69G5FAV' } }, headers: { 'Mcp-Name': `=?base64?${Buffer.from('get_job').toString('base64')}?=` } });
    expect(encoded.status).toBe(200);
  });

  it('a malformed modern request is a 4xx JSON-RPC error, never a 500', async () => {
    const headers = { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'MCP-Protocol-Version': MODERN, 'Mcp-Method': 'tools/list' };
    const bodies: unknown[] = [
      { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': MODERN } } }, // no clientInfo
      { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: { ...envelope(), 'io.modelcontextprotocol/clientInfo': 'me' } } },
      { jsonrpc: '2.0', id: 1, method: 'tools/list' }, // a modern header without the envelope
      [{ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: envelope() } }, { jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: envelope() } }],
    ];
    for (const body of bodies) {
      const res = await fetch(`${app.baseUrl}/mcp`, { method: 'POST', headers, body: JSON.stringify(body) });
      expect(res.status, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
      expect(res.status, JSON.stringify(body)).toBeLessThan(500);
      expect(((await res.json()) as Rpc).error!.code, JSON.stringify(body)).toBeLessThan(-32000);
    }
    const badName = await modern({ method: 'tools/call', params: { name: 'get_job', arguments: {} }, headers: { 'Mcp-Name': '=?base64?%%%?=' } });
    expect(badName.status).toBe(400);
  });

  it('an unknown method is 404 with -32601', async () => {
    const res = await modern({ method: 'resources/list' });
    expect(res.status).toBe(404);
    expect(((await res.json()) as Rpc).error!.code).toBe(-32601);
  });

  it('a notification POST is 202 with no body', async () => {
    const res = await modern({ method: 'notifications/cancelled', id: null, params: { requestId: 1 } });
    expect(res.status).toBe(202);
    expect(await res.text()).toBe('');
  });

  it('keeps OAuth and the Origin check in front of the modern era', async () => {
    const anonymous = await modern({ method: 'server/discover', headers: { Authorization: '' } });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toMatch(/resource_metadata="[^"]+\/\.well-known\/oauth-protected-resource\/mcp"/);
    const foreign = await modern({ method: 'server/discover', headers: { Origin: 'https://evil.example.com' } });
    expect(foreign.status).toBe(403);
  });
});

function info(result: Record<string, any>): unknown { // eslint-disable-line @typescript-eslint/no-explicit-any
  return result.tools[0].icons;
}
