import { describe, expect, it } from 'vitest';
import { cityHotels, resolveHotelName } from '../../src/adapters/platforms/sandbox/hotel-names.js';
import { placeListing, type SandboxPlatform } from '../../src/adapters/platforms/sandbox/ids.js';
import { sandboxListing } from '../../src/adapters/platforms/sandbox/property.js';

/** The sandbox's catalogue with five Lisbon hotels renamed alike, so the ambiguous path does not hang on generated names. */
const listingAt = (platform: SandboxPlatform, id: string) => {
  const at = placeListing(platform, id);
  const listing = sandboxListing(platform, id, at);
  return at.city === 0 && at.serial % 10 === 3 ? { ...listing, property: { ...listing.property, name: 'Twin Hotel Alfama' } } : listing;
};

describe('sandbox hotel names (issue 34 item 1)', () => {
  it('several hotels of a name: the first in search order, the others named in ambiguous_property', () => {
    const twins = cityHotels(0, listingAt).filter((h) => h.name === 'Twin Hotel Alfama');
    expect(twins).toHaveLength(5);
    for (const location of ['Lisbon', null]) {
      const resolved = resolveHotelName('twin hotel alfama', location, listingAt)!;
      expect(resolved.googleHotelId).toBe(twins[0]!.googleHotelId);
      expect(resolved.warnings.map((w) => w.code)).toEqual(['ambiguous_property']);
      const [compared, also] = resolved.warnings[0]!.message.split('Also:');
      expect(compared).toContain(twins[0]!.googleHotelId);
      for (const other of twins.slice(1)) expect(also).toContain(other.googleHotelId);
      expect(also).not.toContain(twins[0]!.googleHotelId);
    }
  });

  it('no hotel of the name in the place, or an empty name: null, never another hotel', () => {
    expect(resolveHotelName('Twin Hotel Alfama', 'Porto', listingAt)).toBeNull();
    expect(resolveHotelName('Twin Hotel', 'Lisbon', listingAt)).toBeNull();
    expect(resolveHotelName(' ! ', null, listingAt)).toBeNull();
  });
});
