import { NATIVE_LISTING_ID } from '../../../domain/listing-ids/id-shapes.js';
import { LegFailure } from '../../../domain/ports/platform.js';

/**
 * Airbnb listing ids. The native id is the decimal room number of `airbnb.com/rooms/<id>`; the
 * GraphQL API wraps it in base64 "relay" ids (`StayListing:<id>`, `DemandStayListing:<id>`).
 */
const NATIVE_ID = NATIVE_LISTING_ID.airbnb!;

export function isNativeId(id: string): boolean {
  return NATIVE_ID.test(id);
}

/** The id as sent upstream; anything but a room number is refused before it reaches a request. */
export function assertNativeId(id: string): string {
  if (!isNativeId(id)) throw new LegFailure('failed', `"${id.slice(0, 40)}" is not an Airbnb listing id (a room number is expected)`);
  return id;
}

export function relayId(type: 'StayListing' | 'DemandStayListing', nativeId: string): string {
  return Buffer.from(`${type}:${assertNativeId(nativeId)}`, 'utf8').toString('base64');
}

/** `RGVtYW5kU3RheUxpc3Rpbmc6MTkxNzU2MA==` → `1917560`; null when it is not a listing relay id. */
export function nativeIdFromRelay(relay: unknown): string | null {
  if (typeof relay !== 'string' || !/^[A-Za-z0-9+/=_-]+$/.test(relay)) return null;
  const decoded = Buffer.from(relay, 'base64').toString('utf8');
  const m = /^(?:Demand)?StayListing:(\d+)$/.exec(decoded);
  return m && isNativeId(m[1]!) ? m[1]! : null;
}

export function listingUrl(siteUrl: string, nativeId: string): string {
  return `${siteUrl.replace(/\/$/, '')}/rooms/${nativeId}`;
}
