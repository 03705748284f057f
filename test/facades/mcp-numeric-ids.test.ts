import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createTRPCClient, httpLink } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppRouter } from '../../src/router/app-router.js';
import { startTestApp, type TestApp } from '../support/app.js';

/** Issue 16: MCP clients (and the Inspector CLI) send numeric listing ids as JSON numbers. */
let app: TestApp;
let client: Client;
beforeAll(async () => {
  app = await startTestApp();
  client = new Client({ name: 'test-agent', version: '1.0.0' });
  const { key } = await app.newKey('sandbox');
  await client.connect(new StreamableHTTPClientTransport(new URL(`${app.baseUrl}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${key}` } } }));
});
afterAll(async () => {
  await client?.close();
  await app?.close();
});

type Result = { isError?: boolean; structuredContent?: { data: any }; content: { text: string }[] }; // eslint-disable-line @typescript-eslint/no-explicit-any
const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as unknown as Result;

describe('numeric listing ids over MCP', () => {
  it('says "string or integer" in the input schema of every listing id', async () => {
    const { tools } = await client.listTools();
    const props = (name: string) => (tools.find((t) => t.name === name)!.inputSchema.properties ?? {}) as Record<string, { anyOf?: { type: string }[]; type?: string; items?: { anyOf?: { type: string }[] } }>;
    expect(props('get_price').listingId!.anyOf!.map((o) => o.type)).toEqual(['string', 'integer']);
    expect(props('get_listing').id!.anyOf!.map((o) => o.type)).toEqual(['string', 'integer']);
    expect(props('get_reviews').listingId!.anyOf!.map((o) => o.type)).toEqual(['string', 'integer']);
    expect(props('check_availability').listingId!.anyOf!.map((o) => o.type)).toEqual(['string', 'integer']);
  });

  it('takes a JSON number as its decimal string, with the same answer as the string', async () => {
    const stay = { platform: 'vrbo', checkIn: '2031-05-01', checkOut: '2031-05-04' };
    const asNumber = await call('get_price', { ...stay, listingId: 6000004 });
    const asText = await call('get_price', { ...stay, listingId: '6000004' });
    expect(asNumber.isError).toBeFalsy();
    expect(asNumber.structuredContent!.data).toEqual(asText.structuredContent!.data);
    expect(asNumber.structuredContent!.data.listingId).toBe('6000004');

    const listing = await call('get_listing', { platform: 'airbnb', id: 40000012 });
    expect(listing.structuredContent!.data.platformListingId).toBe('40000012');
    const calendar = await call('check_availability', { platform: 'airbnb', listingIds: [40000012, '40000013'], startDate: '2031-05-01', endDate: '2031-05-07' });
    expect(calendar.structuredContent!.data.map((c: { listingId: string }) => c.listingId)).toEqual(['40000012', '40000013']);
  });

  it('refuses a number that is not a whole id, naming the field', async () => {
    for (const listingId of [1.5, -3, 2 ** 60]) {
      const bad = await call('get_price', { platform: 'vrbo', checkIn: '2031-05-01', checkOut: '2031-05-04', listingId });
      expect(bad.isError).toBe(true);
      const body = JSON.parse(bad.content[0]!.text) as { error: { code: string; param: string; message: string } };
      expect(body.error).toMatchObject({ code: 'invalid_request', param: 'listingId' });
      expect(body.error.message).toBe('listingId must be the native id as text, or as a whole number from 0 to 9007199254740991.');
    }
  });

  it('keeps refusing every other type, naming the field, in every tool that takes an id', async () => {
    const stay = { checkIn: '2031-05-01', checkOut: '2031-05-04' };
    const cases: [string, string, Record<string, unknown>][] = [
      ['get_price', 'listingId', { platform: 'vrbo', ...stay }],
      ['get_listing', 'id', { platform: 'airbnb' }],
      ['get_reviews', 'listingId', { platform: 'airbnb' }],
      ['check_availability', 'listingId', { platform: 'airbnb', startDate: '2031-05-01', endDate: '2031-05-07' }],
    ];
    for (const [tool, field, rest] of cases) {
      for (const value of [true, { id: 1 }, [40000012], null]) {
        const bad = await call(tool, { ...rest, [field]: value });
        expect(bad.isError, `${tool} ${field}=${JSON.stringify(value)}`).toBe(true);
        const body = JSON.parse(bad.content[0]!.text) as { error: { code: string; param: string } };
        expect(body.error, `${tool} ${field}=${JSON.stringify(value)}`).toMatchObject({ code: 'invalid_request', param: field });
      }
    }
  });
});

describe('numeric listing ids over tRPC (the same schema)', () => {
  it('takes a JSON number as its decimal string', async () => {
    const { key } = await app.newKey('sandbox');
    const trpc = createTRPCClient<AppRouter>({ links: [httpLink({ url: `${app.baseUrl}/trpc`, headers: { Authorization: `Bearer ${key}` } })] });
    // The input type says string | number, so a typed caller may send either.
    const answer = await trpc.listing.query({ platform: 'airbnb', id: 40000012 });
    if (answer.kind !== 'result') throw new Error('expected a result');
    expect(answer.data.platformListingId).toBe('40000012');
  });
});
