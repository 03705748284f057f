import { greatCircleKm, type LatLng } from './great-circle.js';

/** A box by its south-west and north-east corners; swLng > neLng is a box across the antimeridian. */
export interface Box {
  swLat: number;
  swLng: number;
  neLat: number;
  neLng: number;
}

/**
 * Where a search looks (issue 25 item 1). `centre` is what distances are measured from: the
 * "lat,lng" location, the box's centre, or null when the location is a place name and the
 * platform must say where that is. `radiusKm` and `box` never come together.
 */
export interface SearchArea {
  centre: LatLng | null;
  radiusKm: number | null;
  box: Box | null;
}

export const RADIUS_KM = { min: 0.1, max: 100 } as const;

const NUMBER = /^\s*[-+]?(\d+(\.\d+)?|\.\d+)\s*$/;
const COORDINATES = /^\s*([-+]?\d+(?:\.\d+)?)\s*,\s*([-+]?\d+(?:\.\d+)?)\s*$/;

/** "lat,lng" as a point, or null when the text is not coordinates (a place name). Range is checked by the input rules. */
export function parseLatLng(text: string): LatLng | null {
  const m = COORDINATES.exec(text);
  return m ? { lat: Number(m[1]), lng: Number(m[2]) } : null;
}

/**
 * `swLat,swLng,neLat,neLng` as a Box, or the reason it is not one (for a 400 naming `bbox`).
 * The south edge must be below the north edge; west may be east of east (the antimeridian).
 */
export function parseBbox(text: string): Box | { problem: string } {
  const parts = text.split(',');
  if (parts.length !== 4 || !parts.every((p) => NUMBER.test(p))) {
    return { problem: 'bbox must be four decimal numbers "swLat,swLng,neLat,neLng" (south-west corner, then north-east corner).' };
  }
  const [swLat, swLng, neLat, neLng] = parts.map(Number) as [number, number, number, number];
  if (Math.abs(swLat) > 90 || Math.abs(neLat) > 90) return { problem: 'bbox latitudes must be from -90 to 90.' };
  if (Math.abs(swLng) > 180 || Math.abs(neLng) > 180) return { problem: 'bbox longitudes must be from -180 to 180.' };
  if (swLat >= neLat) return { problem: `bbox south-west latitude ${swLat} must be below the north-east latitude ${neLat}.` };
  if (swLng === neLng) return { problem: 'bbox has no width: its two longitudes are equal.' };
  return { swLat, swLng, neLat, neLng };
}

export const isBox = (v: Box | { problem: string }): v is Box => !('problem' in v);

/** Degrees east from the west edge to the east edge (more than 180 only for boxes that wide). */
const widthDeg = (b: Box) => (b.neLng - b.swLng + 360) % 360;

const normaliseLng = (lng: number) => (lng > 180 ? lng - 360 : lng);

/** The box's centre: the middle latitude, and the middle of its width (across the antimeridian too). */
export function boxCentre(b: Box): LatLng {
  return { lat: (b.swLat + b.neLat) / 2, lng: normaliseLng(b.swLng + widthDeg(b) / 2) };
}

/** Inside the box or on its edge. */
export function inBox(b: Box, p: LatLng): boolean {
  if (p.lat < b.swLat || p.lat > b.neLat) return false;
  return (p.lng - b.swLng + 360) % 360 <= widthDeg(b);
}

/** Inside the area (within the radius of the centre, or in the box); true for an area that limits nothing. */
export function inArea(area: SearchArea, centre: LatLng | null, p: LatLng): boolean {
  if (area.box) return inBox(area.box, p);
  if (area.radiusKm !== null && centre) return greatCircleKm(centre, p) <= area.radiusKm;
  return true;
}

/** The area a search's parameters describe. A box is searched around its centre. */
export function searchAreaOf(location: string | null, radiusKm: number | null, bbox: Box | null): SearchArea {
  if (bbox) return { centre: boxCentre(bbox), radiusKm: null, box: bbox };
  return { centre: location === null ? null : parseLatLng(location), radiusKm, box: null };
}

/** A point as a search location: "lat,lng" to 6 decimals (about 0.1 m). */
export function locationText(p: LatLng): string {
  return `${Number(p.lat.toFixed(6))},${Number(p.lng.toFixed(6))}`;
}
