import { greatCircleKm, roundKm } from '../../../domain/geo/great-circle.js';
import type { NearbyPlace, Property } from '../../../domain/model/property.js';
import { dig, num, str, type FieldWarnings } from '../parse-support.js';
import { minutesOf } from './travel-time.js';

/**
 * Issue 25 item 1: SerpApi property details' `nearby_places[]` as `nearby`, nearest first:
 * `category` is the kind, the distance is measured from the listing's own pin to the place's
 * `gps_coordinates`, and `transportations[]` ("Walking", "9 min") are the travel times. A place
 * without a name is skipped; an answer without the list is null with a warning. A travel time
 * whose duration cannot be read, or that names no mode, is left out and named in a warning.
 */
export function parseNearby(json: unknown, at: Property['location'], w: FieldWarnings): NearbyPlace[] | null {
  const raw = dig(json, 'nearby_places');
  if (!Array.isArray(raw)) return w.missing('nearby', 'google names no places near this property');
  const origin = at.lat !== null && at.lng !== null ? { lat: at.lat, lng: at.lng } : null;
  const unread: string[] = [];
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
      if (mode !== null && minutes !== null) return [{ mode, minutes }];
      unread.push(`${mode ?? '(no mode)'} "${duration ?? '(no duration)'}" to ${name}`);
      return [];
    });
    return [{ name, kind: str(dig(p, 'category')), distanceKm, travelTime }];
  });
  if (unread.length) {
    const named = unread.slice(0, 5).join(', ') + (unread.length > 5 ? ` and ${unread.length - 5} more` : '');
    w.add('field_unavailable', `nearby.travelTime: ${unread.length} travel time(s) google states could not be read and were left out: ${named}`);
  }
  if (places.some((p) => p.distanceKm === null)) w.add('field_unavailable', 'nearby: some places google names have no coordinates (or the property has none): their distanceKm is null');
  // Stable sort: places at equal (or unknown) distance keep google's order.
  return places.sort((a, b) => (a.distanceKm ?? Infinity) - (b.distanceKm ?? Infinity) || 0);
}
