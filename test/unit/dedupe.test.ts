import { describe, expect, it } from 'vitest';
import { dedupe, sameProperty } from '../../src/domain/operations/dedupe.js';
import type { Property } from '../../src/domain/model/property.js';
import { CITIES } from '../../src/adapters/platforms/sandbox/gazetteer.js';
import { LISTINGS_PER_CITY, listingId } from '../../src/adapters/platforms/sandbox/ids.js';
import { sandboxListing, sandboxTwinOf } from '../../src/adapters/platforms/sandbox/property.js';

type P = 'airbnb' | 'booking' | 'vrbo';
const PLATFORMS: P[] = ['airbnb', 'booking', 'vrbo'];

/** Every sandbox listing of a city on the three rental platforms, with the truth of which home it is. */
function cityListings(city: number) {
  return PLATFORMS.flatMap((platform) =>
    Array.from({ length: LISTINGS_PER_CITY[platform] }, (_, i) => {
      const serial = i + 1;
      const property = sandboxListing(platform, listingId(platform, city, serial), { city, serial }).property;
      const home = sandboxTwinOf(platform, serial) ? `airbnb:${serial}` : `${platform}:${serial}`;
      return { property, home };
    }),
  );
}

describe('cross-platform dedupe', () => {
  it('has precision and recall of 1 on the whole sandbox (every city, airbnb + booking + vrbo)', () => {
    let truePairs = 0;
    let linked = 0;
    let correct = 0;
    for (let city = 0; city < CITIES.length; city++) {
      const listings = cityListings(city);
      const homeOf = new Map(listings.map((l) => [l.property.id, l.home]));
      const byHome = new Map<string, number>();
      for (const l of listings) byHome.set(l.home, (byHome.get(l.home) ?? 0) + 1);
      for (const n of byHome.values()) truePairs += n - 1;
      const { items } = dedupe(listings.map((l) => l.property));
      for (const item of items) {
        for (const other of item.alsoOn ?? []) {
          linked++;
          if (homeOf.get(`stays_${other.platform}_${other.platformListingId}`) === homeOf.get(item.id)) correct++;
        }
      }
    }
    const precision = correct / linked;
    const recall = correct / truePairs;
    console.log(`sandbox dedupe: ${truePairs} true links, ${linked} made, ${correct} correct; precision ${precision.toFixed(3)}, recall ${recall.toFixed(3)}`);
    expect(truePairs).toBeGreaterThan(100);
    expect(precision).toBe(1);
    expect(recall).toBe(1);
  });

  it('states its rule: near, similar name, same bedrooms and guests, another platform', () => {
    const base = sandboxListing('airbnb', listingId('airbnb', 0, 5), { city: 0, serial: 5 }).property;
    const twin = sandboxListing('vrbo', listingId('vrbo', 0, 5), { city: 0, serial: 5 }).property;
    expect(sameProperty(base, twin)).toBe(true);
    const far: Property = { ...twin, location: { ...twin.location, lat: twin.location.lat! + 0.001 } }; // ~110 m
    expect(sameProperty(base, far)).toBe(false);
    expect(sameProperty(base, { ...twin, bedrooms: (twin.bedrooms ?? 0) + 1 })).toBe(false);
    expect(sameProperty(base, { ...twin, name: 'Something else entirely' })).toBe(false);
    expect(sameProperty(base, { ...base })).toBe(false);
  });
});
