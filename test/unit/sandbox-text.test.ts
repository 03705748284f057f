import { describe, expect, it } from 'vitest';
import { createSandboxAdapters } from '../../src/adapters/platforms/sandbox/adapter.js';
import { CITIES } from '../../src/adapters/platforms/sandbox/gazetteer.js';
import { greatCircleKm } from '../../src/domain/geo/great-circle.js';
import type { Property } from '../../src/domain/model/property.js';
import type { Platform } from '../../src/domain/platforms.js';
import type { SearchQuery } from '../../src/domain/ports/platform.js';

/** Issue 34 item 5: sandbox text a person notices reads as a real listing would, over the sandbox's own search. */
const signal = new AbortController().signal;
const PLATFORMS: Platform[] = ['airbnb', 'booking', 'vrbo', 'google'];
const query = (location: string, platform: Platform): SearchQuery => ({
  location, area: { centre: null, radiusKm: null, box: null }, checkIn: null, checkOut: null, occupancy: { adults: 2, children: 0, childAges: [] }, rooms: 1,
  propertyTypes: [], amenities: [], minBedrooms: null, priceMin: null, priceMax: null, minGuestRating: null, refundable: null, board: null,
  platforms: [platform], sort: 'recommended', currency: 'USD',
});
const set = createSandboxAdapters();
const everyItem = async (location: string): Promise<Property[]> =>
  (await Promise.all(PLATFORMS.map((p) => set.get(p)!.search!({ query: query(location, p), offset: 0, count: 100 }, signal)))).flatMap((r) => r.items);
const slug = (name: string) => name.toLowerCase().normalize('NFD').replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
const HOTEL_ONLY = ['breakfast', 'restaurant', 'bar', 'room_service', 'front_desk_24h', 'gym', 'spa', 'airport_shuttle'];

describe('sandbox text', () => {
  it('names say what kind of place a listing is, never the word "other"', async () => {
    for (const city of ['Lisbon', 'Paris', 'Tokyo']) {
      const items = await everyItem(city);
      expect(items.filter((p) => /\bother\b/i.test(p.name)).map((p) => p.name)).toEqual([]);
      expect(items.filter((p) => p.propertyType === 'other').length).toBeGreaterThan(0);
    }
  });

  it('a home has a home\'s host, URL and amenities, cross-listed homes on Booking.com too; a hotel is its own host', async () => {
    const items = await everyItem('Lisbon');
    const booking = items.filter((p) => p.platform === 'booking');
    const homes = booking.filter((p) => p.propertyType !== 'hotel');
    expect(homes.filter((p) => p.host?.name === p.name || !p.url.endsWith(`/${slug(p.name)}.html`)).map((p) => p.name)).toEqual([]);
    expect(booking.filter((p) => p.propertyType === 'hotel').every((p) => p.host?.name === p.name)).toBe(true);
    // Every 15th Booking.com listing is the Airbnb home of the same serial (sandboxTwinOf).
    const twin = booking.find((p) => p.platformListingId === '2000015')!;
    expect(twin.propertyType).not.toBe('hotel');
    expect([twin.url, twin.host!.name === twin.name]).toEqual([`https://www.booking.com/hotel/pt/${slug(twin.name)}.html`, false]);
    expect(items.filter((p) => p.propertyType !== 'hotel' && p.amenities!.some((a) => HOTEL_ONLY.includes(a))).map((p) => `${p.platform} ${p.name}`)).toEqual([]);
  });

  it('places nearby: neighbourhoods are points of interest, and the airport is where it is (Lisbon\'s about 6 km from the centre)', async () => {
    const google = set.get('google')!;
    const hotels = (await google.search!({ query: query('Lisbon', 'google'), offset: 0, count: 100 }, signal)).items;
    const central = hotels.find((p) => greatCircleKm({ lat: 38.7223, lng: -9.1393 }, { lat: p.location.lat!, lng: p.location.lng! }) < 1.5)!;
    const listing = (await google.listing!({ listingId: central.platformListingId, currency: 'USD', stay: null }, signal))!.value;
    const airport = listing.nearby!.find((p) => p.kind === 'Airport')!;
    expect(airport.name).toBe('Humberto Delgado Airport');
    expect(airport.distanceKm!).toBeGreaterThan(4);
    expect(airport.distanceKm!).toBeLessThan(8);
    expect(listing.nearby!.filter((p) => CITIES[0]!.neighbourhoods.includes(p.name)).map((p) => p.kind)).toEqual(['Point of interest', 'Point of interest', 'Point of interest']);
  });
});
