import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createTRPCClient, httpLink } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppRouter } from '../../src/router/app-router.js';
import { greatCircleKm } from '../../src/domain/geo/great-circle.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { expectError } from '../support/common-rules.js';

/** Issue 25 item 1: radius, box, distances and places nearby, on every face, over the sandbox. */
let app: TestApp;
let key: string;
beforeAll(async () => {
  app = await startTestApp();
  key = (await app.newKey('sandbox')).key;
});
afterAll(() => app.close());

type Item = { id: string; platform: string; distanceKm?: number | null; location: { lat: number | null; lng: number | null }; nearby?: unknown };
type Body = { data: Item[]; meta: { warnings: { code: string; message: string; platform?: string }[]; resolved?: { area?: unknown; location?: { lat: number; lng: number } }; pagination: { nextCursor: string | null } } };
const search = async (query: string) => {
  const res = await app.get(`/v1/search?${query}`, key);
  const text = await res.text();
  expect(res.status, text).toBe(200);
  return JSON.parse(text) as Body;
};
const LISBON = { lat: 38.7223, lng: -9.1393 };

describe('search by radius', () => {
  it('keeps items within the radius of "lat,lng", each with its great-circle distance, and states the area', async () => {
    for (const platform of ['airbnb', 'google']) {
      // Every item of the platform's catalogue (70 and 50), unfolded, then the radius.
      const all = await search(`location=38.7223,-9.1393&platforms=${platform}&limit=100&dedupe=false`);
      const near = await search(`location=38.7223,-9.1393&radiusKm=2.5&platforms=${platform}&limit=100&dedupe=false`);
      for (const body of [all, near]) {
        for (const p of body.data) expect(p.distanceKm).toBe(Math.round(greatCircleKm(LISBON, { lat: p.location.lat!, lng: p.location.lng! }) * 100) / 100);
      }
      const inside = all.data.filter((p) => p.distanceKm! <= 2.5).map((p) => p.id).sort();
      expect(inside.length).toBeGreaterThan(0);
      expect(inside.length).toBeLessThan(all.data.length);
      expect(near.data.map((p) => p.id).sort()).toEqual(inside);
    }
    const near = await search('location=38.7223,-9.1393&radiusKm=2.5&platforms=airbnb,google&limit=100');
    expect(near.meta.resolved!.area).toEqual({ centre: LISBON, radiusKm: 2.5, bbox: null });
    expect(near.meta.warnings.filter((w) => w.code === 'filter_applied_after_retrieval').map((w) => w.platform).sort()).toEqual(['airbnb', 'google']);
  });

  it('measures from the place a platform located for a name, and sorts by distance across platforms', async () => {
    const body = await search('location=Lisbon&radiusKm=3&sort=distance_asc&platforms=airbnb,vrbo&limit=30');
    const distances = body.data.map((p) => p.distanceKm!);
    expect(distances.length).toBeGreaterThan(0);
    expect(distances).toEqual([...distances].sort((a, b) => a - b));
    expect(Math.max(...distances)).toBeLessThanOrEqual(3);
    expect(body.meta.resolved!.area).toEqual({ centre: LISBON, radiusKm: 3, bbox: null });
  });

  it('filters booking items by the coordinates their distanceKm is measured from: one truth for sort and area (issue 34)', async () => {
    const all = await search('location=38.7223,-9.1393&sort=distance_asc&platforms=booking&limit=100&dedupe=false');
    const inside = all.data.filter((p) => p.distanceKm! <= 2.5);
    expect(inside.length).toBeGreaterThan(0);
    expect(inside.length).toBeLessThan(all.data.length);
    for (const query of ['radiusKm=2.5', 'radiusKm=2.5&sort=distance_asc']) {
      const near = await search(`location=38.7223,-9.1393&${query}&platforms=booking&limit=100&dedupe=false`);
      expect(near.data.map((p) => p.id).sort()).toEqual(inside.map((p) => p.id).sort());
      expect(near.meta.warnings.map((w) => w.code)).not.toContain('filter_not_supported');
      expect(near.meta.warnings).toContainEqual(expect.objectContaining({ code: 'filter_applied_after_retrieval', platform: 'booking' }));
    }
    const boxed = await search('bbox=38.70,-9.18,38.74,-9.12&platforms=booking&limit=100');
    expect(boxed.data.length).toBeGreaterThan(0);
    for (const p of boxed.data) expect([p.location.lat! >= 38.7 && p.location.lat! <= 38.74, p.location.lng! >= -9.18 && p.location.lng! <= -9.12]).toEqual([true, true]);
  });
});

describe('search by box', () => {
  it('keeps items inside the box, measured from its centre', async () => {
    const body = await search('bbox=38.70,-9.18,38.74,-9.12&platforms=airbnb,vrbo,google&limit=100');
    expect(body.data.length).toBeGreaterThan(0);
    for (const p of body.data) {
      expect(p.location.lat!).toBeGreaterThanOrEqual(38.7);
      expect(p.location.lat!).toBeLessThanOrEqual(38.74);
      expect(p.location.lng!).toBeGreaterThanOrEqual(-9.18);
      expect(p.location.lng!).toBeLessThanOrEqual(-9.12);
      expect(p.distanceKm).toBe(Math.round(greatCircleKm({ lat: 38.72, lng: -9.15 }, { lat: p.location.lat!, lng: p.location.lng! }) * 100) / 100);
    }
    expect(body.meta.resolved!.area).toEqual({ centre: { lat: 38.72, lng: -9.15 }, radiusKm: null, bbox: { swLat: 38.7, swLng: -9.18, neLat: 38.74, neLng: -9.12 } });
  });

  it('answers 400 naming the fields for both location and bbox, radiusKm with bbox, a bad box or radius, and neither', async () => {
    const both = await expectError(await app.get('/v1/search?location=Lisbon&bbox=38.70,-9.18,38.74,-9.12', key), 400, 'mutually_exclusive_params');
    expect([both.param, both.message]).toEqual(['bbox', expect.stringMatching(/location.*bbox/)]);
    expect((await expectError(await app.get('/v1/search?radiusKm=2&bbox=38.70,-9.18,38.74,-9.12', key), 400, 'mutually_exclusive_params')).param).toBe('radiusKm');
    for (const bad of ['38.70,-9.18,38.74', '38.74,-9.18,38.70,-9.12', 'north,of,the,river', '95,0,96,1']) {
      expect((await expectError(await app.get(`/v1/search?bbox=${encodeURIComponent(bad)}`, key), 400, 'invalid_request')).param).toBe('bbox');
    }
    for (const r of ['0.05', '101', 'far']) expect((await expectError(await app.get(`/v1/search?location=Lisbon&radiusKm=${r}`, key), 400, 'invalid_request')).param).toBe('radiusKm');
    expect((await expectError(await app.get('/v1/search?limit=5', key), 400, 'missing_parameter')).param).toBe('location');
  });
});

describe('distance and nearby on the other faces', () => {
  it('a name without a located centre has null distances with one warning per platform (a place the sandbox does not know: none)', async () => {
    const body = await search('location=Lisbon&platforms=airbnb&limit=3');
    expect(body.data.every((p) => typeof p.distanceKm === 'number')).toBe(true);
    expect(body.meta.warnings.map((w) => w.code)).not.toContain('distance_unavailable');
  });

  it('listing detail names places nearby where the platform does, and says so where it does not', async () => {
    const google = (await search('location=Lisbon&platforms=google&limit=1')).data[0]!;
    const res = (await (await app.get(`/v1/listing/google/${google.id.replace('stays_google_', '')}`, key)).json()) as { data: Item & { nearby: { name: string; distanceKm: number; travelTime: unknown[] }[] } };
    expect(res.data.nearby.length).toBe(4);
    expect(res.data.nearby.map((p) => p.distanceKm)).toEqual([...res.data.nearby.map((p) => p.distanceKm)].sort((a, b) => a - b));
    const airbnb = (await (await app.get('/v1/listing/airbnb/40000012', key)).json()) as { data: Item; meta: Body['meta'] };
    expect(airbnb.data.nearby).toBeNull();
    expect(airbnb.meta.warnings).toContainEqual(expect.objectContaining({ code: 'field_unavailable', message: expect.stringMatching(/^nearby:/) }));
  });

  it('MCP full and compact answers carry distanceKm, resolved.area and nearby, valid against the advertised schemas; tRPC too', async () => {
    const client = new Client({ name: 'test-agent', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${app.baseUrl}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${key}` } } }));
    type Result = { structuredContent: Body; isError?: boolean };
    const args = { location: '38.7223,-9.1393', radiusKm: 2, sort: 'distance_asc', platforms: ['airbnb'], limit: 5 };
    // The SDK client checks structuredContent against the tool's output schema.
    for (const view of ['full', 'compact']) {
      const r = (await client.callTool({ name: 'search_stays', arguments: { ...args, view } })) as unknown as Result;
      expect(r.isError).toBeFalsy();
      expect(r.structuredContent.data.every((p) => typeof p.distanceKm === 'number' && p.distanceKm <= 2)).toBe(true);
      expect(r.structuredContent.meta.resolved!.area).toMatchObject({ centre: LISBON, radiusKm: 2 });
    }
    const google = (await search('location=Lisbon&platforms=google&limit=1')).data[0]!.id.replace('stays_google_', '');
    const compact = (await client.callTool({ name: 'get_listing', arguments: { platform: 'google', id: google, view: 'compact' } })) as unknown as { structuredContent: { data: { nearby: unknown[] } }; isError?: boolean };
    expect(compact.isError).toBeFalsy();
    expect(compact.structuredContent.data.nearby).toHaveLength(4);
    await client.close();

    const trpc = createTRPCClient<AppRouter>({ links: [httpLink({ url: `${app.baseUrl}/trpc`, headers: { Authorization: `Bearer ${key}` } })] });
    const boxed = await trpc.search.query({ bbox: '38.70,-9.18,38.74,-9.12', platforms: ['airbnb'], limit: 3 });
    if (boxed.kind === 'shaped' || !('resolved' in boxed.meta)) throw new Error('expected a full answer');
    expect(boxed.meta.resolved?.area?.bbox).toEqual({ swLat: 38.7, swLng: -9.18, neLat: 38.74, neLng: -9.12 });
  });
});
