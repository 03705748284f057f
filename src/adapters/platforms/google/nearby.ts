import { greatCircleKm, roundKm } from '../../../domain/geo/great-circle.js';
import type { NearbyPlace, Property } from '../../../domain/model/property.js';
import { dig, num, str, type FieldWarnings } from '../parse-support.js';

/** "9 min", "1 hr 5 min", "2 hrs" as minutes; null for anything else (never a guess). */
export function minutesOf(text: string): number | null {
  const m = /^\s*(?:(\d+)\s*hrs?)?\s*(?:(\d+)\s*min)?\s*$/i.exec(text);
  if (!m || (m[1] === undefined && m[2] === undefined)) return null;
  return Number(m[1] ?? 0) * 60 + Number(m[2] ?? 0);
}

/**
 * Issue 25 item 1: SerpApi property details' `nearby_places[]` as `nearby`, nearest first:
 * `category` is the kind, the distance is measured from the listing's own pin to the place's
 * `gps_coordinates`, and `transportations[]` ("Walking", "9 min") are the travel times. A place
 * without a name is skipped; an answer without the list is null with a warning.
 */
export function parseNearby(json: unknown, at: Property['location'], w: FieldWarnings): NearbyPlace[] | null {
  const raw = dig(json, 'nearby_places');
  if (!Array.isArray(raw)) return w.missing('nearby', 'google names no places near this property');
  const origin = at.lat !== null && at.lng !== null ? { lat: at.lat, lng: at.lng } : null;
  const places = raw.flatMap((p): NearbyPlace[] => {
    const name = str(dig(p, 'name'));
    if (name === null) return [];
    const [lat, lng] = [num(dig(p, 'gps_coordinates', 'latitude')), num(dig(p, 'gps_coordinates', 'longitude'))];
    const distanceKm = origin && lat !== null && lng !== null ? roundKm(greatCircleKm(origin, { lat, lng })) : null;
    const ways = dig(p, 'transportations');
    const travelTime = (Array.isArray(ways) ? ways : []).flatMap((t) => {
      const mode = str(dig(t, 'type'));
      const duration = str(dig(t, 'duration'));
      const minutes = duration === null ? null : minutesOf(duration);
      return mode !== null && minutes !== null ? [{ mode, minutes }] : [];
    });
    return [{ name, kind: str(dig(p, 'category')), distanceKm, travelTime }];
  });
  if (places.some((p) => p.distanceKm === null)) w.add('field_unavailable', 'nearby: some places google names have no coordinates (or the property has none): their distanceKm is null');
  // Stable sort: places at equal (or unknown) distance keep google's order.
  return places.sort((a, b) => (a.distanceKm ?? Infinity) - (b.distanceKm ?? Infinity) || 0);
}
