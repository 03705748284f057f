import { ServiceError } from '../errors.js';
import type { KeyEnv } from '../accounts/plans.js';
import type { Platform } from '../platforms.js';

/**
 * The shape of each platform's native listing id, judged before any leg: an id that cannot be a
 * listing of that platform is the caller's mistake (400, free), not a platform failure, so it never
 * reaches an adapter and never counts toward a circuit breaker. The adapters test ids against these
 * same patterns before they build an upstream request.
 */
export const NATIVE_LISTING_ID: Readonly<Partial<Record<Platform, RegExp>>> = {
  // The room number of airbnb.com/rooms/<id>.
  airbnb: /^[1-9]\d{0,24}$/,
  // The numeric hotel id of Booking's answers, or the page name "<cc>/<slug>" of its URL.
  booking: /^(?:[1-9]\d{0,11}|[a-z]{2}\/[a-z0-9][a-z0-9-]{0,200})$/,
  // Vrbo's propertyId, "ha" suffix included (the two namespaces are numbered apart).
  vrbo: /^\d{1,12}(?:ha)?$/,
  // A Google Hotels property token: base64url without padding.
  google: /^[A-Za-z0-9_-]{8,200}$/,
};

/**
 * Sandbox keys may also send the documented trigger ids (README "Sandbox triggers"), which no
 * platform would accept; every other sandbox id is judged by the platform's rule, as a live one is.
 */
export const SANDBOX_TRIGGER_IDS: ReadonlySet<string> = new Set(['sandbox-missing', 'sandbox:unavailable', 'sandbox:format-changed']);

/** True when `id` has the shape of a native listing id of `platform` (platforms without a rule accept any). */
export function isNativeListingId(platform: Platform, id: string): boolean {
  const rule = NATIVE_LISTING_ID[platform];
  return rule === undefined || rule.test(id);
}

/** Throws 400 invalid_listing_id naming `param` for the first id that cannot be a listing of `platform`. */
export function assertListingIds(platform: Platform, ids: readonly string[], param: string, keyEnv: KeyEnv): void {
  for (const id of ids) {
    if (keyEnv === 'sandbox' && SANDBOX_TRIGGER_IDS.has(id)) continue;
    if (!isNativeListingId(platform, id)) {
      const shown = id.length > 40 ? `${id.slice(0, 40)}…` : id;
      throw new ServiceError('invalid_listing_id', `"${shown}" is not a ${platform} listing id. Send the id a search item carries (stays_${platform}_…, or its platformListingId), the native id as the platform shows it, or the listing's page URL.`, { param });
    }
  }
}
