import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { SANDBOX_HOTEL, SANDBOX_HOTEL_QUERY } from '../support/sandbox-hotel.js';

/** The MCP face through the SDK's own client over real HTTP, with an API key as bearer (headless agents). */
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ worker: true });
});
afterAll(() => app.close());

async function connect(key: string): Promise<Client> {
  const client = new Client({ name: 'test-agent', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${app.baseUrl}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${key}` } } }));
  return client;
}

interface ToolResult {
  isError?: boolean;
  structuredContent?: { data: unknown; meta: Record<string, unknown> };
  content: { type: string; text: string }[];
}

describe('MCP tool server', () => {
  it('lists the seven read-only tools with annotations and schemas', async () => {
    const { key } = await app.newKey('sandbox');
    const client = await connect(key);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['check_availability', 'compare_prices', 'get_job', 'get_listing', 'get_price', 'get_reviews', 'search_stays']);
    for (const tool of tools) {
      // get_job reads only our own job table; the data tools reach the platforms.
      expect(tool.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true, openWorldHint: tool.name !== 'get_job' });
      expect(tool.outputSchema?.type).toBe('object');
      expect(tool.description).toMatch(/credit|free/i);
    }
    const search = tools.find((t) => t.name === 'search_stays')!;
    // location or bbox, one of them (issue 25): a rule the tool checks, so neither is required in the schema.
    expect(search.inputSchema.required).toBeUndefined();
    expect(Object.keys(search.inputSchema.properties as object)).toEqual(expect.arrayContaining(['location', 'radiusKm', 'bbox']));
    expect((search.inputSchema.properties as Record<string, { type?: string; default?: unknown }>).platforms!.type).toBe('array');
    expect((search.inputSchema.properties as Record<string, { default?: unknown }>).limit!.default).toBe(20);
    await client.close();
  });

  it('returns exactly what each REST endpoint returns for the same input', async () => {
    const { key } = await app.newKey('sandbox');
    const client = await connect(key);
    const cases: [string, Record<string, unknown>, string][] = [
      ['search_stays', { location: 'Lisbon', platforms: ['airbnb', 'vrbo'], limit: 5 }, '/v1/search?location=Lisbon&platforms=airbnb,vrbo&limit=5'],
      ['check_availability', { platform: 'airbnb', listingId: '40000012', startDate: '2031-05-01', endDate: '2031-05-08' }, '/v1/availability?platform=airbnb&listingId=40000012&startDate=2031-05-01&endDate=2031-05-08'],
      ['get_listing', { platform: 'booking', id: 'gb/garden-court' }, '/v1/listing/booking/gb%2Fgarden-court'],
      ['get_price', { platform: 'vrbo', listingId: '6000004', checkIn: '2031-05-01', checkOut: '2031-05-04', children: 1, childAges: [6] }, '/v1/price?platform=vrbo&listingId=6000004&checkIn=2031-05-01&checkOut=2031-05-04&children=1&childAges=6'],
      ['compare_prices', { name: SANDBOX_HOTEL, location: 'Lisbon', checkIn: '2031-05-01', checkOut: '2031-05-03' }, `/v1/price-compare?name=${SANDBOX_HOTEL_QUERY}&location=Lisbon&checkIn=2031-05-01&checkOut=2031-05-03`],
      ['get_reviews', { platform: 'booking', listingId: '2000033', limit: 7 }, '/v1/reviews?platform=booking&listingId=2000033&limit=7'],
    ];
    for (const [name, args, path] of cases) {
      const viaMcp = (await client.callTool({ name, arguments: args })) as ToolResult;
      expect(viaMcp.isError, `${name}: ${viaMcp.content[0]?.text}`).toBeFalsy();
      const viaRest = (await (await app.get(path, key)).json()) as { data: unknown; meta: Record<string, unknown> };
      expect(viaMcp.structuredContent!.data, name).toEqual(viaRest.data);
      const { requestId: _a, cached: _b, platformResults: pa, ...restMeta } = viaRest.meta;
      const { requestId: _c, cached: _d, platformResults: pm, ...mcpMeta } = viaMcp.structuredContent!.meta;
      expect(mcpMeta, name).toEqual(restMeta);
      expect((pm as { count: number }[]).map((p) => p.count)).toEqual((pa as { count: number }[]).map((p) => p.count));
      expect(viaMcp.content[0]!.text).toMatch(/credit/);
    }
    await client.close();
  });

  it('answers validation errors as tool errors with the spec codes', async () => {
    const { key } = await app.newKey('sandbox');
    const client = await connect(key);
    const bad: [string, Record<string, unknown>, string, string][] = [
      ['search_stays', { location: 'Lisbon', limit: 500 }, 'limit_out_of_range', 'limit'],
      ['check_availability', { platform: 'airbnb', startDate: '2031-05-01', endDate: '2031-05-08' }, 'missing_parameter', 'listingId'],
      ['get_reviews', { platform: 'airbnb', listingId: '1', url: 'https://www.airbnb.com/rooms/1' }, 'mutually_exclusive_params', 'url'],
      ['get_reviews', { platform: 'airbnb', url: 'http://169.254.169.254/rooms/1' }, 'invalid_listing_url', 'url'],
      ['get_listing', { platform: 'airbnb', id: 'sandbox-missing' }, 'listing_not_found', 'id'],
    ];
    for (const [name, args, code, param] of bad) {
      const result = (await client.callTool({ name, arguments: args })) as ToolResult & { _meta?: { error?: { code: string; param?: string } } };
      expect(result.isError, name).toBe(true);
      expect(JSON.parse(result.content[0]!.text).error).toMatchObject({ code, param });
      expect(result._meta?.error).toMatchObject({ code, param });
    }
    await client.close();
  });

  it('goes async with a job handle, polled with get_job; another account gets job_not_found', async () => {
    const owner = await app.newKey('sandbox');
    const other = await app.newKey('sandbox');
    const client = await connect(owner.key);
    const accepted = (await client.callTool({ name: 'search_stays', arguments: { location: 'sandbox:async', platforms: ['vrbo'] } })) as ToolResult;
    const handle = accepted.structuredContent!.data as { jobId: string; status: string };
    expect(handle.status).toBe('pending');
    expect(accepted.content[0]!.text).toContain('get_job');
    const stranger = await connect(other.key);
    const foreign = (await stranger.callTool({ name: 'get_job', arguments: { jobId: handle.jobId } })) as ToolResult;
    expect(JSON.parse(foreign.content[0]!.text).error.code).toBe('job_not_found');
    let status = 'pending';
    for (let i = 0; i < 60 && status !== 'completed'; i++) {
      await new Promise((r) => setTimeout(r, 150));
      const polled = (await client.callTool({ name: 'get_job', arguments: { jobId: handle.jobId } })) as ToolResult;
      status = (polled.structuredContent!.data as { status: string }).status;
    }
    expect(status).toBe('completed');
    await client.close();
    await stranger.close();
  });

  it('refuses calls without a valid bearer, naming the resource metadata', async () => {
    const res = await fetch(`${app.baseUrl}/mcp`, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' }, body: '{}' });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toContain(`resource_metadata="${app.baseUrl}/.well-known/oauth-protected-resource/mcp"`);
    const bad = await fetch(`${app.baseUrl}/mcp`, { method: 'POST', headers: { Authorization: 'Bearer nope' }, body: '{}' });
    expect(bad.headers.get('www-authenticate')).toContain('error="invalid_token"');
  });

  it('limits tool calls per account, in a bucket apart from the REST key bucket', async () => {
    const { key } = await app.newKey('sandbox');
    const client = await connect(key);
    const codes: string[] = [];
    for (let i = 0; i < 31; i++) {
      const r = (await client.callTool({ name: 'get_job', arguments: { jobId: 'job_01ARZ3NDEKTSV4RRFFQ69G5FAV' } })) as ToolResult;
      codes.push(JSON.parse(r.content[0]!.text).error.code);
    }
    expect(codes.slice(0, 30).every((c) => c === 'job_not_found')).toBe(true);
    expect(codes[30]).toBe('rate_limit_exceeded');
    const rest = await app.get('/v1/account', key);
    expect(rest.status).toBe(200);
    expect(rest.headers.get('x-ratelimit-remaining')).toBe('29');
    await client.close();
  });
});
