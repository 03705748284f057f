import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createTRPCClient, httpLink } from '@trpc/client';
import { encode } from 'gpt-tokenizer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppRouter } from '../../src/router/app-router.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { expectError } from '../support/common-rules.js';

/** Issue 16 item 3: fields= and view=compact on every face; the token saving measured with a real tokenizer. */
let app: TestApp;
let key: string;
beforeAll(async () => {
  app = await startTestApp();
  key = (await app.newKey('sandbox')).key;
});
afterAll(() => app.close());

type Body = { data: Record<string, unknown>[]; meta: Record<string, unknown> };

describe('fields', () => {
  it('keeps only the asked paths over REST (GET and POST), and bills and pages as before', async () => {
    const full = (await (await app.get('/v1/search?location=Lisbon&platforms=airbnb,booking&limit=5&checkIn=2031-05-01&checkOut=2031-05-04', key)).json()) as Body;
    const res = await app.get('/v1/search?location=Lisbon&platforms=airbnb,booking&limit=5&checkIn=2031-05-01&checkOut=2031-05-04&fields=id,name,price.totalPrice,guestRating', key);
    const body = (await res.json()) as Body;
    expect(body.data).toEqual(full.data.map((p) => ({ id: p.id, name: p.name, price: { totalPrice: (p.price as { totalPrice: number }).totalPrice }, guestRating: p.guestRating })));
    expect(body.meta.pagination).toEqual(full.meta.pagination);

    const post = await fetch(`${app.baseUrl}/v1/search`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ location: 'Lisbon', platforms: ['airbnb'], limit: 3, fields: ['id', 'location.city'] }),
    });
    const posted = (await post.json()) as Body;
    expect(posted.data.every((p) => Object.keys(p).join() === 'id,location' && Object.keys(p.location as object).join() === 'city')).toBe(true);
  });

  it('answers 400 naming the unknown paths, before any work', async () => {
    const err = await expectError(await app.get('/v1/search?location=Lisbon&fields=id,price.total,nme', key), 400, 'invalid_request');
    expect(err.param).toBe('fields');
    expect(err.message).toContain('"price.total", "nme"');
    await expectError(await app.get('/v1/reviews?platform=airbnb&listingId=40000012&fields=rating,stars', key), 400, 'invalid_request');
  });

  it('each operation\'s documented fields example is accepted as written, and search offers no listing-only path (issue 34)', async () => {
    const own = (await app.newKey('sandbox')).key;
    const doc = (await (await fetch(`${app.baseUrl}/v1/openapi.json`)).json()) as { paths: Record<string, { get?: { parameters?: { name: string; description?: string }[] } }> };
    const example = (path: string) => /\(([^)]+)\)/.exec(doc.paths[path]!.get!.parameters!.find((p) => p.name === 'fields')!.description!)![1]!;
    const calls: Record<string, string> = {
      '/search': 'location=Lisbon&platforms=airbnb&limit=2&checkIn=2031-05-01&checkOut=2031-05-04',
      '/listing/{platform}/{id}': 'checkIn=2031-05-01&checkOut=2031-05-04',
      '/reviews': 'platform=airbnb&listingId=40000012&limit=2',
    };
    for (const [path, query] of Object.entries(calls)) {
      const fields = example(path);
      const url = `/v1${path.replace('{platform}', 'google').replace('{id}', 'ChkIZzAuMQ')}?${query}&fields=${fields}`;
      const res = await app.get(url, own);
      expect(res.status, `${url}: ${await res.clone().text()}`).toBe(200);
      const body = (await res.json()) as { data: Record<string, unknown> | Record<string, unknown>[] };
      const first = Array.isArray(body.data) ? body.data[0]! : body.data;
      expect(Object.keys(first).sort(), url).toEqual([...new Set(fields.split(',').map((f) => f.split('.')[0]!))].sort());
    }
    for (const listingOnly of ['nearby.name', 'reviewSummary.average']) {
      const err = await expectError(await app.get(`/v1/search?location=Lisbon&fields=id,${listingOnly}`, own), 400, 'invalid_request');
      expect([err.param, err.message]).toEqual(['fields', expect.stringContaining(`"${listingOnly}"`)]);
      expect(err.message).not.toMatch(/known paths: .*(nearby|reviewSummary)/);
    }
  });

  it('works over tRPC', async () => {
    const trpc = createTRPCClient<AppRouter>({ links: [httpLink({ url: `${app.baseUrl}/trpc`, headers: { Authorization: `Bearer ${key}` } })] });
    const listing = await trpc.listing.query({ platform: 'airbnb', id: '40000012', fields: ['id', 'bedrooms'] });
    if (listing.kind !== 'shaped') throw new Error('expected a shaped answer');
    expect(Object.keys(listing.data)).toEqual(['id', 'bedrooms']);
  });
});

describe('view=compact over MCP', () => {
  it('answers a 20-item search in at most 35% of the full tokens, valid against the tool output schema', async () => {
    const client = new Client({ name: 'test-agent', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${app.baseUrl}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${key}` } } }));
    const args = { location: 'Paris', limit: 20, checkIn: '2031-05-01', checkOut: '2031-05-04' };
    type Result = { structuredContent: Body; content: { text: string }[] };
    // The SDK client checks structuredContent against the tool's output schema: both must pass.
    const full = (await client.callTool({ name: 'search_stays', arguments: args })) as unknown as Result;
    const compact = (await client.callTool({ name: 'search_stays', arguments: { ...args, view: 'compact' } })) as unknown as Result;
    expect(compact.structuredContent.data).toHaveLength(20);
    expect(compact.structuredContent.data.map((p) => p.id)).toEqual(full.structuredContent.data.map((p) => p.id));
    for (const item of compact.structuredContent.data) {
      expect(Object.values(item)).not.toContain(null);
      expect(item).not.toHaveProperty('images');
    }
    const tokens = (r: Result) => encode(r.content[0]!.text).length;
    const ratio = tokens(compact) / tokens(full);
    console.log(`search_stays, 20 items, o200k tokens: full ${tokens(full)}, compact ${tokens(compact)}, ratio ${ratio.toFixed(3)}`);
    expect(ratio).toBeLessThanOrEqual(0.35);

    // Asked for, images come back as the first one only.
    const withImage = (await client.callTool({ name: 'search_stays', arguments: { ...args, view: 'compact', fields: ['id', 'images'] } })) as unknown as Result;
    expect(withImage.structuredContent.data.every((p) => Object.keys(p).join() === 'id,image' && typeof p.image === 'string')).toBe(true);

    const { tools } = await client.listTools();
    const schema = JSON.stringify(tools.find((t) => t.name === 'search_stays')!.outputSchema);
    expect(schema).toContain('"image"');
    await client.close();
  });
});
