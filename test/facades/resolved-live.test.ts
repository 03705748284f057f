import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { replayLiveConfig, startReplayUpstream, type ReplayUpstream } from '../support/replay-upstream.js';

/**
 * Issue 16 item 1 on live keys, against the replay upstream: meta.resolved says only what a
 * platform's answer says. Google's answer names the property a price comparison matched; no live
 * search answer names the place it searched, so a live search has no resolved location.
 */
let replay: ReplayUpstream;
let app: TestApp;
let key: string;
beforeAll(async () => {
  replay = await startReplayUpstream();
  app = await startTestApp({ config: { legDeadlineMs: 5_000, live: replayLiveConfig(replay.url) } });
  key = (await app.newKey('live', { plan: 'scale', credits: 100 })).key;
});
afterAll(async () => {
  await app?.close();
  await replay?.close();
});

type Body = { data: unknown; meta: { resolved?: { location?: unknown; property?: { name: string; address: string | null; googleHotelId: string | null } }; platformResults: { status: string }[] } };
async function ok(path: string): Promise<Body> {
  const res = await app.get(path, key);
  const text = await res.text();
  expect(res.status, text).toBe(200);
  return JSON.parse(text) as Body;
}

describe('meta.resolved on live keys', () => {
  const azulejo = { name: 'Hotel Azulejo Teste', address: 'Rua do Exemplo 12, 1100-001 Lisboa, Portugal', googleHotelId: 'ChkIfx1AzulejoTeste0001EAE' };

  it('names the property a price comparison matched, by id or by name, as google answered it', async () => {
    const byId = await ok('/v1/price-compare?googleHotelId=ChkIfx1AzulejoTeste0001EAE&checkIn=2031-06-10&checkOut=2031-06-13');
    expect(byId.meta.resolved).toEqual({ property: azulejo });
    const byName = await ok(`/v1/price-compare?name=${encodeURIComponent('Hotel Azulejo Teste')}&location=Lisbon&checkIn=2031-06-10&checkOut=2031-06-13`);
    expect(byName.meta.resolved).toEqual({ property: azulejo });
  });

  it('states the radius searched, from the request, and measures every item with coordinates from it (issue 25)', async () => {
    const body = (await ok('/v1/search?location=38.7223,-9.1393&radiusKm=100&platforms=airbnb,booking,vrbo,google&limit=50&sort=distance_asc')) as Body & {
      data: { platform: string; distanceKm: number | null }[];
      meta: { warnings: { code: string; platform?: string }[] };
    };
    expect(body.meta.resolved).toEqual({ area: { centre: { lat: 38.7223, lng: -9.1393 }, radiusKm: 100, bbox: null } });
    expect(body.meta.warnings).toContainEqual(expect.objectContaining({ code: 'filter_not_supported', platform: 'booking' }));
    expect(body.meta.warnings.map((w) => w.code)).not.toContain('ambiguous_location');
    const distances = body.data.map((p) => p.distanceKm);
    expect(distances.length).toBeGreaterThan(0);
    expect(distances.every((d) => d !== null && d <= 100)).toBe(true);
    expect(distances).toEqual([...distances].sort((a, b) => a! - b!));
  });

  it('has no resolved location for a search: no live platform says where it searched', async () => {
    const body = await ok('/v1/search?location=Lisbon&platforms=airbnb,booking,vrbo,google&limit=20');
    expect(body.meta.platformResults.map((r) => r.status)).toEqual(['ok', 'ok', 'ok', 'ok']);
    expect(body.meta).not.toHaveProperty('resolved');
  });
});
