import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

/**
 * Issue 25 over MCP (SDK client, real HTTP, sandbox): offers, context and fee lines in the full
 * and compact views of get_listing and in get_price, cheapest stays in check_availability; every
 * answer validates against the tool's advertised output schema.
 */
let app: TestApp;
let client: Client;
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
let schemas: Map<string, object>;

beforeAll(async () => {
  app = await startTestApp();
  const { key } = await app.newKey('sandbox');
  client = new Client({ name: 'rates-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${app.baseUrl}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${key}` } } }));
  schemas = new Map((await client.listTools()).tools.map((t) => [t.name, t.outputSchema as object]));
});
afterAll(async () => {
  await client.close();
  await app.close();
});

type Answer = { data: Record<string, unknown>; meta: Record<string, unknown> };
async function call(name: string, args: Record<string, unknown>): Promise<Answer> {
  const r = (await client.callTool({ name, arguments: args })) as { isError?: boolean; structuredContent?: Answer };
  expect(r.isError, JSON.stringify(r)).toBeFalsy();
  const validate = ajv.compile(schemas.get(name)!);
  expect(validate(r.structuredContent), JSON.stringify(validate.errors)).toBe(true);
  return r.structuredContent!;
}

// A sandbox google hotel (Lisbon, serial 1): rate plans, and a context from its typical range.
const HOTEL = { platform: 'google', checkIn: '2031-01-14', checkOut: '2031-01-16' };
const googleId = `ChkI${Buffer.from('g0.1').toString('base64url')}`;

describe('rates over MCP', () => {
  it('get_price: offers cheapest first, the top-level price the cheapest, context with a verdict, fee lines', async () => {
    const { data } = await call('get_price', { ...HOTEL, listingId: googleId });
    const offers = data.offers as { totalPrice: number; board: string | null }[];
    expect(offers.length).toBeGreaterThanOrEqual(3);
    expect(offers[0]!.totalPrice).toBe(data.totalPrice);
    expect(data.context).toMatchObject({ verdict: 'low', source: 'google' });
    expect((data.fees as { items: unknown[] }).items.length).toBeGreaterThan(0);
  });

  it('get_listing with dates: offers and context in the full and the compact view', async () => {
    const full = await call('get_listing', { ...HOTEL, id: googleId });
    const price = full.data.price as { offers: unknown[]; context: unknown; fees: { items: unknown[] } };
    expect(price.offers.length).toBeGreaterThanOrEqual(3);
    expect(price.context).not.toBeNull();
    const compact = await call('get_listing', { ...HOTEL, id: googleId, view: 'compact' });
    const cp = compact.data.price as { offers: Record<string, unknown>[]; context: { verdict: string }; fees?: unknown };
    expect(cp.offers.length).toBe(Math.min(5, price.offers.length));
    expect(cp.offers[0]).not.toHaveProperty('currency');
    expect(cp.context.verdict).toBe('low');
    expect(cp.fees).toBeUndefined();
  });

  it('an airbnb price: one rate with unstated terms, context null, each explained by a warning (compact too)', async () => {
    const args = { platform: 'airbnb', checkIn: '2031-07-10', checkOut: '2031-07-13', id: '40000001' };
    const full = await call('get_listing', args);
    expect((full.data.price as { context: unknown }).context).toBeNull();
    expect((full.meta.warnings as { code: string }[]).map((w) => w.code)).toContain('price_context_unavailable');
    await call('get_listing', { ...args, view: 'compact' });
  });

  it('check_availability with nights: nightly prices and meta.cheapestStays', async () => {
    const { data, meta } = await call('check_availability', { platform: 'booking', listingId: '2000001', startDate: '2031-05-01', endDate: '2031-05-31', nights: 3, currency: 'EUR' });
    const days = (data as unknown as { dates: { available: boolean; nightlyPrice: number | null }[] }[])[0]!.dates;
    expect(days.filter((d) => d.available).every((d) => typeof d.nightlyPrice === 'number')).toBe(true);
    const stays = meta.cheapestStays as { checkIn: string; checkOut: string; totalPrice: number }[];
    expect(stays.length).toBeGreaterThan(0);
    expect(stays.map((s) => s.totalPrice)).toEqual([...stays.map((s) => s.totalPrice)].sort((a, b) => a - b));
    expect(meta.currency).toBe('EUR');
  });
});
