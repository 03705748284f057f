import type { Resolved, ResolvedPlace, Warning } from '../model/common.js';
import type { Platform } from '../platforms.js';
import type { SearchArea } from '../geo/area.js';

type PlacedLeg = { platform: Platform; place?: ResolvedPlace | undefined; alternatives?: ResolvedPlace[] | undefined };

const samePlace = (a: ResolvedPlace, b: ResolvedPlace) =>
  a.name === b.name && a.countryCode === b.countryCode && a.lat === b.lat && a.lng === b.lng && a.radiusKm === b.radiusKm;

/**
 * Issue 16 item 1: the place a search's location was taken to be. The first platform (in the
 * order asked) that says where it searched gives the answer; platforms that searched elsewhere or
 * another radius are listed apart. A name with several places answers with the likeliest and an
 * `ambiguous_location` warning naming the others with coordinates, so a client can retry with
 * "lat,lng". Nothing is said when no platform reported its place.
 */
export function resolveLocation(query: string, legs: PlacedLeg[], area?: SearchArea): { resolved: Resolved | null; warnings: Warning[] } {
  const placed = legs.filter((l): l is PlacedLeg & { place: ResolvedPlace } => l.place !== undefined).map((l) => ({ ...l, place: withinArea(l.place, area) }));
  const first = placed[0];
  const searched = area ? areaOf(area, first?.place) : null;
  if (!first) return { resolved: searched ? { area: searched } : null, warnings: [] };
  const alternatives = first.alternatives ?? [];
  const byPlatform = placed.filter((l) => !samePlace(l.place, first.place)).map((l) => ({ ...l.place, platform: l.platform }));
  const warnings: Warning[] = [];
  if (alternatives.length > 0) {
    const others = alternatives.map((a) => `${a.name}, ${a.region ?? a.countryCode} (${a.countryCode}) at "${a.lat},${a.lng}"`).join('; ');
    warnings.push({
      code: 'ambiguous_location',
      message: `"${query}" names several places; searched ${first.place.name}, ${first.place.countryCode} at "${first.place.lat},${first.place.lng}". Also: ${others}. Send location as "lat,lng" (or "name, countryCode") to choose.`,
    });
  }
  // Keys in the schema's order: a page's meta built so is sent as built once validated (router/page-output.ts).
  return { resolved: { location: { ...first.place, query, alternatives, byPlatform }, ...(searched ? { area: searched } : {}) }, warnings };
}

/**
 * Issue 34: the place as the answer covers it. A radiusKm around the place itself (a place name's
 * radius is measured from where the platform located it) narrows the circle the platform
 * searched to the one its items were kept in, so location.radiusKm and area.radiusKm agree.
 * A radius around another point, or a box, leaves the platform's own circle as stated.
 */
function withinArea(place: ResolvedPlace, area: SearchArea | undefined): ResolvedPlace {
  if (!area || area.radiusKm === null) return place;
  const sameCentre = area.centre === null || (area.centre.lat === place.lat && area.centre.lng === place.lng);
  if (!sameCentre) return place;
  return { ...place, radiusKm: place.radiusKm === null ? area.radiusKm : Math.min(place.radiusKm, area.radiusKm) };
}

/**
 * Issue 25 item 1: the radius or box a search covered, stated in meta.resolved; null for a
 * search without either. Its centre is the area's own, else the place the first platform located.
 */
function areaOf(area: SearchArea, place: ResolvedPlace | undefined): NonNullable<Resolved['area']> | null {
  if (area.radiusKm === null && area.box === null) return null;
  // To 6 decimals (about 0.1 m): a box's computed centre would otherwise show binary noise.
  const at = area.centre ?? (place ? { lat: place.lat, lng: place.lng } : null);
  const centre = at && { lat: Number(at.lat.toFixed(6)), lng: Number(at.lng.toFixed(6)) };
  return { centre, radiusKm: area.radiusKm, bbox: area.box };
}
