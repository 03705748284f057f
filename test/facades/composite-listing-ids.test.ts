import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createTRPCClient, httpLink, TRPCClientError } from '@trpc/client';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AppRouter } from '../../src/router/app-router.js';
import { startTestApp, type TestApp } from '../support/app.js';

/**
 * Issue 34 item 2: the instructions tell an agent to pass an item's platform and id, and the id a
 * search item carries is `stays_<platform>_<native id>` (the only one the compact view keeps).
 * Every listing parameter takes it on every face, as the native id would be taken, and refuses an
 * id of another platform than the call's with a 400 naming the parameter.
 */
let app: TestApp;
let key: string;
let client: Client;
beforeAll(async () => {
  app = await startTestApp();
  ({ key } = await app.newKey('sandbox'));
  client = new Client({ name: 'test-agent', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${app.baseUrl}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${key}` } } }));
  // Listing first: the SDK client then validates every structuredContent against its output schema.
  await client.listTools();
});
// A key of its own per test (sandbox keys have 30 calls a minute); the SDK client keeps its first one.
beforeEach(async () => {
  ({ key } = await app.newKey('sandbox'));
});
afterAll(async () => {
  await client?.close();
  await app?.close();
});

type Item = { id: string; platform: string; platformListingId: string };
type ApiError = { code: string; subCode?: string; param: string; message: string };
const STAY = 'checkIn=2031-05-01&checkOut=2031-05-04';
const WINDOW = 'startDate=2031-05-01&endDate=2031-05-07';

async function rest(path: string): Promise<{ status: number; body: any }> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const res = await app.get(path, key);
  return { status: res.status, body: await res.json() };
}

/** One search item per platform, as an agent holds them after search. */
async function searchItems(): Promise<Map<string, Item>> {
  const { body } = await rest('/v1/search?location=Lisbon&platforms=airbnb,booking,vrbo,google&limit=40');
  const byPlatform = new Map<string, Item>();
  for (const item of body.data as Item[]) if (!byPlatform.has(item.platform)) byPlatform.set(item.platform, item);
  expect([...byPlatform.keys()].sort()).toEqual(['airbnb', 'booking', 'google', 'vrbo']);
  return byPlatform;
}

function expectMismatch(status: number, error: ApiError, param: string) {
  expect(status).toBe(400);
  expect(error).toMatchObject({ code: 'invalid_listing_id', subCode: 'listing_platform_mismatch', param });
}

describe('REST takes a search item\'s id wherever a listing id is taken', () => {
  it('in the listing path, and in price, reviews and price-compare queries, answering as for the native id', async () => {
    const items = await searchItems();
    for (const item of items.values()) {
      const byId = await rest(`/v1/listing/${item.platform}/${encodeURIComponent(item.id)}?${STAY}`);
      const byNative = await rest(`/v1/listing/${item.platform}/${encodeURIComponent(item.platformListingId)}?${STAY}`);
      expect(byId.status, item.id).toBe(200);
      expect(byId.body.data).toEqual(byNative.body.data);
      expect(byId.body.data.id).toBe(item.id);

      const price = await rest(`/v1/price?platform=${item.platform}&listingId=${encodeURIComponent(item.id)}&${STAY}`);
      expect(price.status, item.id).toBe(200);
      expect(price.body.data).toEqual((await rest(`/v1/price?platform=${item.platform}&listingId=${encodeURIComponent(item.platformListingId)}&${STAY}`)).body.data);
    }
    const reviews = await rest('/v1/reviews?platform=airbnb&listingId=stays_airbnb_40000012');
    expect(reviews.status).toBe(200);
    expect(reviews.body.data).toEqual((await rest('/v1/reviews?platform=airbnb&listingId=40000012')).body.data);

    const google = items.get('google')!;
    const compare = await rest(`/v1/price-compare?googleHotelId=${encodeURIComponent(google.id)}&${STAY}`);
    expect(compare.status).toBe(200);
    expect(compare.body.data).toEqual((await rest(`/v1/price-compare?googleHotelId=${encodeURIComponent(google.platformListingId)}&${STAY}`)).body.data);
  });

  it('in an availability batch mixing both forms, answering the native ids', async () => {
    const mixed = await rest(`/v1/availability?platform=airbnb&listingIds=stays_airbnb_40000012,40000013&${WINDOW}`);
    expect(mixed.status).toBe(200);
    expect(mixed.body.data.map((c: { listingId: string }) => c.listingId)).toEqual(['40000012', '40000013']);
    expect(mixed.body.data).toEqual((await rest(`/v1/availability?platform=airbnb&listingIds=40000012,40000013&${WINDOW}`)).body.data);
    const single = await rest(`/v1/availability?platform=airbnb&listingId=stays_airbnb_40000012&${WINDOW}`);
    expect(single.body.data.map((c: { listingId: string }) => c.listingId)).toEqual(['40000012']);
  });

  it('shares the cache with the native id: the same listing asked both ways is one upstream read', async () => {
    // An id no other test asks for (the sandbox has a listing for any well-formed id).
    const first = await rest('/v1/listing/vrbo/6000777');
    const second = await rest('/v1/listing/vrbo/stays_vrbo_6000777');
    expect(second.body.data).toEqual(first.body.data);
    expect(first.body.meta.cached).toBe(false);
    expect(second.body.meta.cached).toBe(true);
  });

  it('refuses an id of another platform with a 400 naming the parameter', async () => {
    const listing = await rest('/v1/listing/booking/stays_airbnb_40000012');
    expectMismatch(listing.status, listing.body.error, 'id');
    expect(listing.body.error.message).toBe('id: "stays_airbnb_40000012" names platform airbnb, but platform is booking. Send platform airbnb with it, or the id of a listing on booking.');
    const price = await rest(`/v1/price?platform=vrbo&listingId=stays_airbnb_40000012&${STAY}`);
    expectMismatch(price.status, price.body.error, 'listingId');
    const reviews = await rest('/v1/reviews?platform=booking&listingId=stays_vrbo_6000004');
    expectMismatch(reviews.status, reviews.body.error, 'listingId');
    const batch = await rest(`/v1/availability?platform=airbnb&listingIds=40000012,stays_vrbo_6000004&${WINDOW}`);
    expectMismatch(batch.status, batch.body.error, 'listingIds');
    expect(batch.body.error.message).toMatch(/^listingIds \(item 2\): "stays_vrbo_6000004"/);
    const compare = await rest(`/v1/price-compare?googleHotelId=stays_airbnb_40000012&${STAY}`);
    expectMismatch(compare.status, compare.body.error, 'googleHotelId');
  });
});

describe('tRPC takes it through the same procedures', () => {
  const trpc = () => createTRPCClient<AppRouter>({ links: [httpLink({ url: `${app.baseUrl}/trpc`, headers: { Authorization: `Bearer ${key}` } })] });

  it('answers the listing as for the native id, and refuses another platform\'s id naming the field', async () => {
    const byId = await trpc().listing.query({ platform: 'airbnb', id: 'stays_airbnb_40000012' });
    const byNative = await trpc().listing.query({ platform: 'airbnb', id: '40000012' });
    if (byId.kind !== 'result' || byNative.kind !== 'result') throw new Error('expected results');
    expect(byId.data).toEqual(byNative.data);

    const err = await trpc().availability.query({ platform: 'vrbo', listingIds: ['6000004', 'stays_booking_123'], startDate: '2031-05-01', endDate: '2031-05-07' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TRPCClientError);
    const data = (err as TRPCClientError<AppRouter>).data as unknown as { httpStatus: number; apiError: { error: ApiError } };
    expectMismatch(data.httpStatus, data.apiError.error, 'listingIds');
  });
});

type ToolResult = { isError?: boolean; structuredContent?: { data: any }; content: { text: string }[] }; // eslint-disable-line @typescript-eslint/no-explicit-any
const callTool = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as unknown as ToolResult;
const toolError = (result: ToolResult) => (JSON.parse(result.content[0]!.text) as { error: ApiError }).error;

describe('MCP, with the SDK client after listing tools', () => {
  it('the instructions name the id search answers, and an agent following them gets each listing', async () => {
    expect(client.getInstructions()).toMatch(/its id as answered \(stays_<platform>_…/);
    const search = await callTool('search_stays', { location: 'Lisbon', platforms: ['airbnb', 'booking', 'vrbo', 'google'], limit: 40 });
    const seen = new Set<string>();
    for (const item of search.structuredContent!.data as Item[]) {
      if (seen.has(item.platform)) continue;
      seen.add(item.platform);
      const listing = await callTool('get_listing', { platform: item.platform, id: item.id });
      expect(listing.isError, item.id).toBeFalsy();
      expect(listing.structuredContent!.data.id).toBe(item.id);
      const price = await callTool('get_price', { platform: item.platform, listingId: item.id, checkIn: '2031-05-01', checkOut: '2031-05-04' });
      expect(price.isError, item.id).toBeFalsy();
    }
    expect(seen.size).toBe(4);
  });

  it('check_availability takes a batch mixing both forms; another platform\'s id is a tool error naming the field', async () => {
    const mixed = await callTool('check_availability', { platform: 'airbnb', listingIds: ['stays_airbnb_40000012', 40000013], startDate: '2031-05-01', endDate: '2031-05-07' });
    expect(mixed.isError).toBeFalsy();
    expect(mixed.structuredContent!.data.map((c: { listingId: string }) => c.listingId)).toEqual(['40000012', '40000013']);

    const listing = await callTool('get_listing', { platform: 'vrbo', id: 'stays_airbnb_40000012' });
    expect(listing.isError).toBe(true);
    expectMismatch(400, toolError(listing), 'id');
    const reviews = await callTool('get_reviews', { platform: 'vrbo', listingId: 'stays_airbnb_40000012' });
    expectMismatch(400, toolError(reviews), 'listingId');
  });
});

describe('MCP over raw HTTP (revision 2026-07-28, no initialize)', () => {
  const envelope = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientInfo': { name: 'raw-http-client', version: '1.0.0' },
    'io.modelcontextprotocol/clientCapabilities': {},
  };
  async function rpc(method: string, params: Record<string, unknown> = {}): Promise<{ result: any }> { // eslint-disable-line @typescript-eslint/no-explicit-any
    const headers: Record<string, string> = {
      Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream',
      'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': method, ...(method === 'tools/call' ? { 'Mcp-Name': String(params.name) } : {}),
    };
    const res = await fetch(`${app.baseUrl}/mcp`, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: envelope } }) });
    expect(res.status).toBe(200);
    return (await res.json()) as { result: any }; // eslint-disable-line @typescript-eslint/no-explicit-any
  }

  it('server/discover names the id to pass; get_listing takes it, and refuses another platform\'s as a tool error', async () => {
    const { result: discovered } = await rpc('server/discover');
    expect(discovered.instructions).toMatch(/its id as answered \(stays_<platform>_…/);
    const { result: ok } = await rpc('tools/call', { name: 'get_listing', arguments: { platform: 'airbnb', id: 'stays_airbnb_40000012' } });
    expect(ok.isError).toBeFalsy();
    expect(ok.structuredContent.data).toMatchObject({ id: 'stays_airbnb_40000012', platformListingId: '40000012' });
    const { result: bad } = await rpc('tools/call', { name: 'get_listing', arguments: { platform: 'google', id: 'stays_airbnb_40000012' } });
    expect(bad.isError).toBe(true);
    expectMismatch(400, (JSON.parse(bad.content[0].text) as { error: ApiError }).error, 'id');
  });
});
