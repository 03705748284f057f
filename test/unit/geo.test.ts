import fc from 'fast-check';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { boxCentre, inArea, inBox, isBox, parseBbox, searchAreaOf, type Box } from '../../src/domain/geo/area.js';
import { EARTH_RADIUS_KM, greatCircleKm, roundKm } from '../../src/domain/geo/great-circle.js';
import { LegGeo } from '../../src/domain/geo/leg-geo.js';
import { compareForSort } from '../../src/domain/operations/merge.js';
import { parseNearby } from '../../src/adapters/platforms/google/nearby.js';
import { minutesOf } from '../../src/adapters/platforms/google/travel-time.js';
import { parseListing } from '../../src/adapters/platforms/google/parse-details.js';
import { FieldWarnings } from '../../src/adapters/platforms/parse-support.js';
import type { Property } from '../../src/domain/model/property.js';

/** Issue 25 item 1: the geography is pure, so its laws are tested on any points, not a few. */
const lat = fc.double({ min: -90, max: 90, noNaN: true });
const lng = fc.double({ min: -180, max: 180, noNaN: true });
const point = fc.record({ lat, lng });

describe('great-circle distance', () => {
  it('matches known distances', () => {
    // Lisbon - Porto and London - Paris, city centres, as published great-circle figures (±0.5 km).
    expect(greatCircleKm({ lat: 38.7223, lng: -9.1393 }, { lat: 41.1579, lng: -8.6291 })).toBeCloseTo(274.0, -0.5);
    expect(greatCircleKm({ lat: 51.5072, lng: -0.1276 }, { lat: 48.8566, lng: 2.3522 })).toBeCloseTo(343.9, -0.5);
    expect(greatCircleKm({ lat: 0, lng: 0 }, { lat: 0, lng: 180 })).toBeCloseTo(Math.PI * EARTH_RADIUS_KM, 6);
    expect(roundKm(1.23456)).toBe(1.23);
  });

  it('is exact near antipodal points, where the haversine lost the triangle inequality', () => {
    // fast-check's counterexample (seed -69725665): three points on the equator, one nearly opposite.
    const [a, b, c] = [{ lat: 0, lng: -179.99999982149987 }, { lat: 0, lng: 0.0000028783694716594255 }, { lat: 0, lng: 0 }];
    expect(greatCircleKm(a, c)).toBeLessThanOrEqual(greatCircleKm(a, b) + greatCircleKm(b, c) + 1e-6);
    expect(greatCircleKm({ lat: 0, lng: 0 }, { lat: 0, lng: 180 })).toBeCloseTo(Math.PI * EARTH_RADIUS_KM, 9);
  });

  it('is zero to itself, symmetric, at most half the circumference, and obeys the triangle inequality', () => {
    fc.assert(
      fc.property(point, point, point, (a, b, c) => {
        expect(greatCircleKm(a, a)).toBeCloseTo(0, 9);
        expect(greatCircleKm(a, b)).toBeCloseTo(greatCircleKm(b, a), 9);
        expect(greatCircleKm(a, b)).toBeLessThanOrEqual(Math.PI * EARTH_RADIUS_KM + 1e-9);
        expect(greatCircleKm(a, c)).toBeLessThanOrEqual(greatCircleKm(a, b) + greatCircleKm(b, c) + 1e-6);
      }),
    );
  });
});

describe('bbox', () => {
  it('reads four numbers and names what is wrong otherwise', () => {
    expect(parseBbox('38.70,-9.20,38.76,-9.10')).toEqual({ swLat: 38.7, swLng: -9.2, neLat: 38.76, neLng: -9.1 });
    for (const [text, problem] of [
      ['38.7,-9.2,38.76', 'four decimal numbers'],
      ['a,b,c,d', 'four decimal numbers'],
      ['1e1,0,20,1', 'four decimal numbers'],
      ['91,0,92,1', 'latitudes'],
      ['0,-181,1,0', 'longitudes'],
      ['40,0,39,1', 'must be below'],
      ['0,5,1,5', 'no width'],
    ] as const) {
      const got = parseBbox(text);
      expect(isBox(got), text).toBe(false);
      expect((got as { problem: string }).problem).toContain(problem);
    }
  });

  it('contains its centre and corners, across the antimeridian too', () => {
    const box = fc
      .tuple(lat, lat, lng, lng)
      .filter(([a, b, c, d]) => a !== b && c !== d)
      .map(([a, b, c, d]): Box => ({ swLat: Math.min(a, b), neLat: Math.max(a, b), swLng: c, neLng: d }));
    fc.assert(
      fc.property(box, (b) => {
        expect(inBox(b, boxCentre(b))).toBe(true);
        expect(inBox(b, { lat: b.swLat, lng: b.swLng })).toBe(true);
        expect(inBox(b, { lat: b.neLat, lng: b.neLng })).toBe(true);
        expect(Math.abs(boxCentre(b).lng)).toBeLessThanOrEqual(180);
      }),
    );
    const fiji: Box = { swLat: -20, swLng: 177, neLat: -15, neLng: -178 };
    expect(boxCentre(fiji).lng).toBeCloseTo(179.5, 9);
    expect([inBox(fiji, { lat: -17, lng: 179 }), inBox(fiji, { lat: -17, lng: -179 }), inBox(fiji, { lat: -17, lng: 0 })]).toEqual([true, true, false]);
  });

  it('a radius keeps exactly the points within it of the centre', () => {
    fc.assert(
      fc.property(point, point, fc.double({ min: 0.1, max: 100, noNaN: true }), (centre, p, radiusKm) => {
        const area = searchAreaOf(`${centre.lat.toFixed(6)},${centre.lng.toFixed(6)}`, radiusKm, null);
        expect(inArea(area, area.centre, p)).toBe(greatCircleKm(area.centre!, p) <= radiusKm);
      }),
    );
    expect(searchAreaOf('Lisbon', 5, null).centre).toBeNull();
  });
});

const item = (id: string, lat: number | null, lng: number | null) =>
  ({ id, platformListingId: id, location: { lat, lng, city: null, region: null, country: null } }) as Property;

describe('a leg\'s geography', () => {
  it('measures each item from the centre, leaves those without coordinates null, out of the area with one warning, and sorts them last', () => {
    const geo = new LegGeo('airbnb', searchAreaOf('38.7223,-9.1393', 2, null));
    const placed = [item('a', 38.7223, -9.1393), item('b', null, null), item('c', 38.73, -9.15)].map((p) => geo.place(p));
    expect(placed.map((p) => p.distanceKm)).toEqual([0, null, 1.26]);
    expect(placed.map((p) => geo.keep(p))).toEqual([true, false, true]);
    expect([...placed].sort(compareForSort('distance_asc')!).map((p) => p.id)).toEqual(['a', 'c', 'b']);
    expect(geo.warnings().map((w) => w.code)).toEqual(['filter_not_supported', 'filter_applied_after_retrieval']);
    const plain = new LegGeo('airbnb', searchAreaOf('38.7223,-9.1393', null, null));
    plain.place(item('b', null, null));
    expect(plain.warnings().map((w) => w.code)).toEqual(['distance_unavailable']);
  });

  it('cannot search a radius around a place it cannot locate; leaves out results without coordinates, saying how many', () => {
    expect(new LegGeo('google', searchAreaOf('Lisbon', 5, null)).unsupported?.code).toBe('filter_not_supported');
    const boxed = new LegGeo('booking', searchAreaOf(null, null, parseBbox('38,-10,39,-9') as Box));
    expect(boxed.unsupported).toBeNull();
    const kept = [item('a', 38.7, -9.1), item('b', null, null), item('c', 40, -9.1)].map((p) => boxed.place(p)).filter((p) => boxed.keep(p));
    expect(kept.map((p) => p.id)).toEqual(['a']);
    expect(boxed.warnings().map((w) => [w.code, w.message])).toEqual([
      ['filter_not_supported', 'booking: 1 of 3 search results carry no coordinates, so bbox cannot be applied to them; they were left out.'],
      ['filter_applied_after_retrieval', expect.stringContaining('bbox applied after retrieval')],
    ]);
    const blind = new LegGeo('booking', searchAreaOf('38.7,-9.1', 5, null));
    blind.place(item('x', null, null));
    expect(blind.warnings().map((w) => w.message)).toEqual(['booking: search results carry no coordinates, so radiusKm cannot be applied; booking returned no properties for it.']);
    const noCentre = new LegGeo('google', searchAreaOf('Lisbon', null, null));
    expect([noCentre.unsupported, noCentre.place(item('x', 38.7, -9.1)).distanceKm]).toEqual([null, null]);
    expect(noCentre.warnings()[0]!.message).toContain('does not state the coordinates');
  });
});

// The shared samples sit beside the checkout (../shared), or beside its parent for a worktree.
const ROOT = path.resolve(import.meta.dirname, '../..');
const SAMPLES = [path.resolve(ROOT, '../shared/upstream-samples'), path.resolve(ROOT, '../../shared/upstream-samples')].find(existsSync);
const DETAILS = 'google/serpapi-google_hotels-property-details-london.json';

describe.skipIf(!SAMPLES)('google nearby places (serpapi-google_hotels-property-details-london.json)', () => {
  const json = () => JSON.parse(readFileSync(path.join(SAMPLES!, DETAILS), 'utf8')) as Record<string, unknown>;

  it('reads every named place, nearest first, measured from the hotel\'s pin, with its travel times', () => {
    const listing = parseListing(json(), 'ChkIqafB4ez8rtLKARoML2cvMXE2cWJiYjhiEAE')!;
    const nearby = listing.value.nearby!;
    expect(nearby).toHaveLength(26);
    expect(nearby[0]).toEqual({ name: 'Gloucester Road', kind: 'Subway station', distanceKm: 0.11, travelTime: [{ mode: 'Walking', minutes: 3 }] });
    const museum = nearby.find((p) => p.name === 'Natural History Museum')!;
    expect(museum).toEqual({ name: 'Natural History Museum', kind: 'Point of interest', distanceKm: 0.59, travelTime: [{ mode: 'Public transport', minutes: 9 }, { mode: 'Walking', minutes: 10 }] });
    expect(nearby.find((p) => p.name === 'London Gatwick Airport')!.travelTime).toEqual([{ mode: 'Public transport', minutes: 59 }, { mode: 'Taxi', minutes: 73 }]);
    const distances = nearby.map((p) => p.distanceKm!);
    expect(distances).toEqual([...distances].sort((a, b) => a - b));
    expect(listing.warnings.filter((w) => w.message.startsWith('nearby'))).toEqual([]);
  });

  it('is null with a warning when the answer names no places', () => {
    const w = new FieldWarnings('google');
    expect(parseNearby({ ...json(), nearby_places: undefined }, { lat: 51.49, lng: -0.18, city: null, region: null, country: null }, w)).toBeNull();
    expect(w.list).toEqual([expect.objectContaining({ code: 'field_unavailable', message: expect.stringMatching(/^nearby:/) })]);
    expect([minutesOf('1 hr 12 min'), minutesOf('2 hrs'), minutesOf('about 5')]).toEqual([72, 120, null]);
  });
});
