import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createTRPCClient, httpLink } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppRouter } from '../../src/router/app-router.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { SANDBOX_HOTEL, SANDBOX_HOTEL_QUERY } from '../support/sandbox-hotel.js';

/** Issue 16 item 1: meta.resolved says what was understood, on every face, over the sandbox gazetteer. */
let app: TestApp;
let key: string;
beforeAll(async () => {
  app = await startTestApp();
  key = (await app.newKey('sandbox')).key;
});
afterAll(() => app.close());

type Place = { name: string; countryCode: string; lat: number; lng: number; radiusKm: number | null };
interface Body {
  data: { location?: { city: string | null; country: string | null } }[];
  meta: { warnings: { code: string; message: string }[]; resolved?: { location?: Place & { query: string; alternatives: Place[]; byPlatform: (Place & { platform: string })[] }; property?: { name: string; address: string | null; googleHotelId: string | null } } };
}
const search = async (query: string) => (await (await app.get(`/v1/search?${query}`, key)).json()) as Body;

describe('meta.resolved', () => {
  it('answers an ambiguous name with the likeliest place, a warning and the alternatives with coordinates', async () => {
    const paris = await search('location=Paris&platforms=airbnb,vrbo&limit=3');
    expect(paris.meta.resolved!.location).toMatchObject({ query: 'paris', name: 'Paris', countryCode: 'FR', lat: 48.8566, lng: 2.3522, radiusKm: 15, byPlatform: [] });
    expect(paris.meta.resolved!.location!.alternatives).toEqual([expect.objectContaining({ name: 'Paris', countryCode: 'US', lat: 33.6609, lng: -95.5555 })]);
    const warning = paris.meta.warnings.find((w) => w.code === 'ambiguous_location')!;
    expect(warning.message).toContain('"33.6609,-95.5555"');
    expect(paris.data.every((p) => p.location?.country === 'FR')).toBe(true);

    const valencia = await search('location=Valencia&platforms=booking&limit=3');
    expect([valencia.meta.resolved!.location!.countryCode, valencia.meta.resolved!.location!.alternatives.map((a) => a.countryCode)]).toEqual(['ES', ['VE']]);
    expect(valencia.meta.warnings.map((w) => w.code)).toContain('ambiguous_location');
  });

  it('takes the retry the warning suggests, by coordinates or by name and country, without a warning', async () => {
    for (const location of ['33.6609,-95.5555', 'Paris, TX', 'paris, us']) {
      const body = await search(`location=${encodeURIComponent(location)}&platforms=airbnb&limit=3`);
      expect(body.meta.resolved!.location).toMatchObject({ name: 'Paris', countryCode: 'US', alternatives: [] });
      expect(body.meta.warnings.map((w) => w.code)).not.toContain('ambiguous_location');
      expect(body.data.length).toBeGreaterThan(0);
      expect(body.data.every((p) => p.location?.country === 'US')).toBe(true);
    }
  });

  it('lists the platforms that searched differently, and says nothing for an unknown place', async () => {
    const lisbon = await search('location=Lisbon&platforms=airbnb,google&limit=3');
    expect(lisbon.meta.resolved!.location!.byPlatform).toEqual([expect.objectContaining({ platform: 'google', name: 'Lisbon', radiusKm: 25 })]);
    const atlantis = await search('location=Atlantis&platforms=airbnb');
    expect(atlantis.meta.resolved).toBeUndefined();
  });

  it('states one radius when the search asks for one around the place: location.radiusKm agrees with area.radiusKm (issue 34)', async () => {
    type WithArea = Body & { meta: { resolved: { area?: { radiusKm: number | null } } } };
    for (const location of ['Lisbon', '38.7223,-9.1393']) {
      const body = (await search(`location=${location}&radiusKm=2&platforms=airbnb,google&limit=3`)) as WithArea;
      expect([body.meta.resolved.location!.radiusKm, body.meta.resolved.area!.radiusKm, body.meta.resolved.location!.byPlatform]).toEqual([2, 2, []]);
    }
    // A radius around another point: the platform's own circle around the city is still what it searched.
    const elsewhere = (await search('location=38.75,-9.10&radiusKm=2&platforms=airbnb&limit=3')) as WithArea;
    expect([elsewhere.meta.resolved.location!.radiusKm, elsewhere.meta.resolved.area!.radiusKm]).toEqual([15, 2]);
  });

  it('names the property price-compare matched, and is the same over MCP and tRPC', async () => {
    const body = (await (await app.get(`/v1/price-compare?name=${SANDBOX_HOTEL_QUERY}&location=Lisbon&checkIn=2031-05-01&checkOut=2031-05-03`, key)).json()) as Body;
    expect(body.meta.resolved!.property).toMatchObject({ name: SANDBOX_HOTEL, googleHotelId: expect.stringMatching(/^ChkI/) });
    expect(body.meta.resolved!.property!.address).toMatch(/, /);

    const client = new Client({ name: 'test-agent', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${app.baseUrl}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${key}` } } }));
    const viaMcp = (await client.callTool({ name: 'search_stays', arguments: { location: 'Paris', platforms: ['airbnb'], limit: 2 } })) as unknown as { structuredContent: Body };
    expect(viaMcp.structuredContent.meta.resolved!.location!.countryCode).toBe('FR');
    expect(viaMcp.structuredContent.meta.warnings.map((w) => w.code)).toContain('ambiguous_location');
    await client.close();

    const trpc = createTRPCClient<AppRouter>({ links: [httpLink({ url: `${app.baseUrl}/trpc`, headers: { Authorization: `Bearer ${key}` } })] });
    const viaTrpc = await trpc.search.query({ location: 'Valencia', platforms: ['vrbo'], limit: 2 });
    if (viaTrpc.kind !== 'result') throw new Error('expected a result');
    expect(viaTrpc.meta.resolved?.location?.alternatives.map((a) => a.countryCode)).toEqual(['VE']);
  });
});
