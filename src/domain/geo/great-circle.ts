/** A point on Earth in decimal degrees. */
export interface LatLng {
  lat: number;
  lng: number;
}

/** Mean Earth radius (IUGG), in km: the figure great-circle distances are computed on. */
export const EARTH_RADIUS_KM = 6371.0088;

const rad = (deg: number) => (deg * Math.PI) / 180;

/**
 * Great-circle distance in km (haversine). Symmetric, zero for a point and itself, and never
 * more than half the Earth's circumference; the clamp keeps rounding from taking asin past 1.
 */
export function greatCircleKm(a: LatLng, b: LatLng): number {
  const dLat = rad(b.lat - a.lat);
  const dLng = rad(b.lng - a.lng);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** A distance as the API states it: km to 2 decimals (10 m), the precision of a platform's map pin. */
export function roundKm(km: number): number {
  return Math.round(km * 100) / 100;
}
