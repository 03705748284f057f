import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createTRPCClient, httpLink, TRPCClientError } from '@trpc/client';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AppRouter } from '../../src/router/app-router.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { expectError } from '../support/common-rules.js';
import { SANDBOX_HOTEL } from '../support/sandbox-hotel.js';

/**
 * Issue 34 item 1: a sandbox price-compare by name is the property the sandbox's own search lists
 * under that name in that place (same id, address, offers and min as by its googleHotelId), a
 * 404 naming `name` when none has it, and the first listed with `ambiguous_property` when several do.
 */
let app: TestApp;
let key: string;
let accountId: string;
beforeAll(async () => {
  app = await startTestApp();
});
// A key per test: sandbox keys allow 30 calls a minute.
beforeEach(async () => {
  ({ key, accountId } = await app.newKey('sandbox'));
});
afterAll(() => app.close());

const STAY = { checkIn: '2031-06-10', checkOut: '2031-06-13' };
type Hotel = { name: string; platformListingId: string };
interface Compared {
  data: { property: string; googleHotelId: string; min: number | null; offers: unknown[] };
  meta: { warnings: { code: string; message: string }[]; resolved: { property: { name: string; address: string | null; googleHotelId: string } } };
}

/** Every google hotel the sandbox's search lists for the place, in its order. */
async function hotelsIn(location: string): Promise<Hotel[]> {
  const res = await app.get(`/v1/search?location=${encodeURIComponent(location)}&platforms=google&limit=100`, key);
  expect(res.status).toBe(200);
  const hotels = ((await res.json()) as { data: Hotel[] }).data;
  expect(hotels.length).toBeGreaterThan(10);
  return hotels;
}

const query = (params: Record<string, string>) => new URLSearchParams({ ...params, ...STAY }).toString();
const compare = (params: Record<string, string>) => app.get(`/v1/price-compare?${query(params)}`, key);
async function compared(params: Record<string, string>): Promise<Compared> {
  const res = await compare(params);
  expect(res.status, JSON.stringify(params)).toBe(200);
  return (await res.json()) as Compared;
}

const namesOnce = (hotels: Hotel[]) => hotels.filter((h) => hotels.filter((o) => o.name === h.name).length === 1);
const codes = (body: Compared) => body.meta.warnings.map((w) => w.code);

describe('sandbox price-compare by name', () => {
  it('is the hotel the search lists under that name in that place: the same answer as by its googleHotelId', async () => {
    for (const city of ['Lisbon', 'Porto']) {
      const hotels = await hotelsIn(city);
      const picked = namesOnce(hotels).slice(0, 4);
      if (city === 'Lisbon') picked.push(hotels.find((h) => h.name === SANDBOX_HOTEL)!);
      expect(picked.every(Boolean), `${SANDBOX_HOTEL} is listed in Lisbon`).toBe(true);
      for (const hotel of picked) {
        const byName = await compared({ name: hotel.name, location: city });
        const byId = await compared({ googleHotelId: hotel.platformListingId });
        expect(byName.data, hotel.name).toEqual(byId.data);
        expect(byName.data).toMatchObject({ property: hotel.name, googleHotelId: hotel.platformListingId });
        expect(byName.data.offers.length).toBeGreaterThan(0);
        expect(byName.meta.resolved.property).toEqual(byId.meta.resolved.property);
        expect(byName.meta.resolved.property.address).toContain(city);
        expect(codes(byName)).not.toContain('ambiguous_property');
      }
    }
  });

  it('matches as the live path does: case, accents and punctuation aside, with or without a location', async () => {
    const hotel = (await hotelsIn('Lisbon')).find((h) => h.name === SANDBOX_HOTEL)!;
    const byId = await compared({ googleHotelId: hotel.platformListingId });
    const plain = SANDBOX_HOTEL.normalize('NFD').replace(/\p{M}/gu, '').toUpperCase();
    expect(plain).not.toBe(SANDBOX_HOTEL);
    expect((await compared({ name: plain, location: 'lisbon' })).data).toEqual(byId.data);
    expect((await compared({ name: `${SANDBOX_HOTEL}!`, location: '38.72,-9.14' })).data).toEqual(byId.data);
    expect((await compared({ name: SANDBOX_HOTEL })).data).toEqual(byId.data);
  });

  it('a name no hotel in the place has is a free 404 listing_not_found naming name, on REST, tRPC and MCP', async () => {
    const before = await app.balanceOf(accountId);
    const misses: Record<string, string>[] = [
      { name: 'Hotel Zqxwv Nowhere Imaginary', location: 'Lisbon' },
      { name: 'Hotel Zqxwv Nowhere Imaginary' },
      // Another place's hotel, a part of a name, a place the sandbox does not know: never a guess.
      { name: SANDBOX_HOTEL, location: 'Porto' },
      { name: SANDBOX_HOTEL.split(' ').slice(0, 2).join(' '), location: 'Lisbon' },
      { name: SANDBOX_HOTEL, location: 'Atlantis' },
    ];
    for (const miss of misses) {
      const error = await expectError(await compare(miss), 404, 'listing_not_found');
      expect(error.param, JSON.stringify(miss)).toBe('name');
      expect(error.message).toContain(miss.name!);
    }

    const trpc = createTRPCClient<AppRouter>({ links: [httpLink({ url: `${app.baseUrl}/trpc`, headers: { Authorization: `Bearer ${key}` } })] });
    const err = await trpc.priceCompare.query({ ...misses[0]!, ...STAY }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TRPCClientError);
    const data = (err as TRPCClientError<AppRouter>).data as unknown as { httpStatus: number; apiError: { error: { code: string; param: string } } };
    expect(data.httpStatus).toBe(404);
    expect(data.apiError.error).toMatchObject({ code: 'listing_not_found', param: 'name' });

    const client = await mcpClient();
    const tool = (await client.callTool({ name: 'compare_prices', arguments: { ...misses[0]!, ...STAY } })) as { isError?: boolean; content: { text: string }[] };
    expect(tool.isError).toBe(true);
    expect(JSON.parse(tool.content[0]!.text).error).toMatchObject({ code: 'listing_not_found', param: 'name' });
    await client.close();
    expect(await app.balanceOf(accountId)).toBe(before);
  });

  it('several hotels of the name: the first the search lists, with ambiguous_property naming the others, on REST and MCP', async () => {
    let shared: { location: string; hotels: Hotel[] } | undefined;
    for (const location of ['Lisbon', 'Porto', 'Madrid', 'Paris', 'London', 'Berlin']) {
      const hotels = await hotelsIn(location);
      const twin = hotels.find((h) => hotels.filter((o) => o.name === h.name).length > 1);
      if (twin) shared = { location, hotels: hotels.filter((h) => h.name === twin.name) };
      if (shared) break;
    }
    expect(shared, 'some place lists two hotels of one name').toBeDefined();
    const [first, ...others] = shared!.hotels;
    const args = { name: first!.name, location: shared!.location };
    const byName = await compared(args);
    expect(byName.data).toEqual((await compared({ googleHotelId: first!.platformListingId })).data);
    const warning = byName.meta.warnings.find((w) => w.code === 'ambiguous_property');
    expect(warning, JSON.stringify(byName.meta.warnings)).toBeDefined();
    for (const other of others) expect(warning!.message).toContain(other.platformListingId);
    expect(warning!.message).toContain('googleHotelId');

    const client = await mcpClient();
    const tool = (await client.callTool({ name: 'compare_prices', arguments: { ...args, ...STAY } })) as unknown as { isError?: boolean; structuredContent: Compared };
    expect(tool.isError).toBeFalsy();
    expect(tool.structuredContent.data).toEqual(byName.data);
    expect(tool.structuredContent.meta.warnings).toContainEqual(warning);
    await client.close();
  });
});

async function mcpClient(): Promise<Client> {
  const client = new Client({ name: 'test-agent', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${app.baseUrl}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${key}` } } }));
  return client;
}
