/** A point on Earth in decimal degrees. */
export interface LatLng {
  lat: number;
  lng: number;
}

/** Mean Earth radius (IUGG), in km: the figure great-circle distances are computed on. */
export const EARTH_RADIUS_KM = 6371.0088;

const rad = (deg: number) => (deg * Math.PI) / 180;

/**
 * Great-circle distance in km, by the spherical form of Vincenty's formula (an atan2 of the
 * chord's two components): symmetric, zero for a point and itself, at most half the Earth's
 * circumference, and well conditioned everywhere. The haversine's asin loses about 1e-8 rad near
 * antipodal points (its slope is infinite at 1), enough to break the triangle inequality there.
 */
export function greatCircleKm(a: LatLng, b: LatLng): number {
  const [φ1, φ2, Δλ] = [rad(a.lat), rad(b.lat), rad(b.lng - a.lng)];
  const y = Math.hypot(Math.cos(φ2) * Math.sin(Δλ), Math.cos(φ1) * Math.sin(φ2) - Math.sin(φ1) * Math.cos(φ2) * Math.cos(Δλ));
  const x = Math.sin(φ1) * Math.sin(φ2) + Math.cos(φ1) * Math.cos(φ2) * Math.cos(Δλ);
  return EARTH_RADIUS_KM * Math.atan2(y, x);
}

/** A distance as the API states it: km to 2 decimals (10 m), the precision of a platform's map pin. */
export function roundKm(km: number): number {
  return Math.round(km * 100) / 100;
}
