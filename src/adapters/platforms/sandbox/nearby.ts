import { greatCircleKm, roundKm } from '../../../domain/geo/great-circle.js';
import type { NearbyPlace, Property } from '../../../domain/model/property.js';
import type { City } from './gazetteer.js';
import { rng } from './random.js';
import type { SandboxPlatform } from './ids.js';


/**
 * Issue 25 item 1: the places a sandbox listing names nearby, as live google does (its property
 * details' nearby_places): a few of the city's neighbourhoods (Google's "Point of interest": a
 * neighbourhood is no restaurant or station) and the city's airport where it really is, measured
 * from the listing's pin, with walking or transit times. The other platforms' listings name none live,
 * so the sandbox gives null for them (the listing then carries the field_unavailable warning).
 */
export function sandboxNearby(platform: SandboxPlatform, property: Property, city: City): NearbyPlace[] | null {
  if (platform !== 'google' || property.location.lat === null || property.location.lng === null) return null;
  const origin = { lat: property.location.lat, lng: property.location.lng };
  const r = rng(`nearby:${property.id}`);
  const places = city.neighbourhoods.slice(0, 3).map((name) => {
    const at = { lat: city.lat + r.float(-0.03, 0.03, 5), lng: city.lng + r.float(-0.03, 0.03, 5) };
    return { name, kind: 'Point of interest', at };
  });
  places.push({ name: city.airport.name, kind: 'Airport', at: { lat: city.airport.lat, lng: city.airport.lng } });
  return places
    .map(({ name, kind, at }): NearbyPlace => {
      const distanceKm = roundKm(greatCircleKm(origin, at));
      const travelTime = distanceKm < 3 ? [{ mode: 'Walking', minutes: Math.max(1, Math.round(distanceKm * 12)) }] : [{ mode: 'Taxi', minutes: Math.round(distanceKm * 2 + 5) }];
      return { name, kind, distanceKm, travelTime: [...travelTime, { mode: 'Public transport', minutes: Math.round(distanceKm * 3 + 6) }] };
    })
    .sort((a, b) => a.distanceKm! - b.distanceKm!);
}
