import type { Warning } from '../model/common.js';
import type { Property } from '../model/property.js';
import type { Platform } from '../platforms.js';
import { inArea, type SearchArea } from './area.js';
import { greatCircleKm, roundKm, type LatLng } from './great-circle.js';
import { GEO_FILTERING } from './filtering.js';

const coordinatesOf = (p: Property): LatLng | null => (p.location.lat !== null && p.location.lng !== null ? { lat: p.location.lat, lng: p.location.lng } : null);

/** The item's great-circle distance from the centre, in km to 2 decimals; null without coordinates or centre. */
export function distanceOf(p: Property, centre: LatLng | null): number | null {
  const at = coordinatesOf(p);
  return centre && at ? roundKm(greatCircleKm(centre, at)) : null;
}

/**
 * The area as a filter on parsed items, for a platform that filters after retrieval: the name
 * of the parameter it applies and the test. An item without coordinates cannot be shown to be
 * inside, so it is left out. Null when the search has no radius or box.
 */
export function areaFilter(area: SearchArea, centre: LatLng | null): { name: 'radiusKm' | 'bbox'; keep: (p: Property) => boolean } | null {
  if (!area.box && area.radiusKm === null) return null;
  return {
    name: area.box ? 'bbox' : 'radiusKm',
    keep: (p) => {
      const at = coordinatesOf(p);
      return at !== null && inArea(area, centre, at);
    },
  };
}

/**
 * Why this platform's leg cannot honour the area at all, as the warning its empty leg carries
 * (the rule of the amenities filter on Booking.com: nothing rather than unfiltered results), or
 * null when it can: a radius needs a centre.
 */
export function areaUnsupported(platform: Platform, area: SearchArea, centre: LatLng | null): Warning | null {
  if (area.box || area.radiusKm === null) return null;
  if (!centre) {
    return { code: 'filter_not_supported', message: `${platform}: radiusKm around a place name needs the place's coordinates, which ${platform}'s answer does not state; send location as "lat,lng" to search a radius. ${platform} returned no properties for it.`, platform };
  }
  return null;
}

/**
 * The warning a leg gives when results without coordinates were left out of the area: all of
 * them (nothing could be tested) or some, counted.
 */
export function areaUncheckable(platform: Platform, param: 'radiusKm' | 'bbox', unplaced: number, seen: number): Warning {
  const message = unplaced === seen
    ? `${platform}: search results carry no coordinates, so ${param} cannot be applied; ${platform} returned no properties for it.`
    : `${platform}: ${unplaced} of ${seen} search results carry no coordinates, so ${param} cannot be applied to them; they were left out.`;
  return { code: 'filter_not_supported', message, platform };
}

/** The warning a leg gives when it applied the area itself, after retrieval (said per platform, from GEO_FILTERING). */
export function areaAppliedWarning(platform: Platform, area: SearchArea): Warning | null {
  if ((!area.box && area.radiusKm === null) || GEO_FILTERING[platform] !== 'after_retrieval') return null;
  return { code: 'filter_applied_after_retrieval', message: `${platform}: ${area.box ? 'bbox' : 'radiusKm'} applied after retrieval (the platform searches its own area around the location), so pages may hold fewer items.`, platform };
}
