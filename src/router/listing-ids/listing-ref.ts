import { ServiceError } from '../../domain/errors.js';
import { listingIdFromUrl } from '../../domain/listing-ids/listing-url.js';
import type { Platform } from '../../domain/platforms.js';

/**
 * A listing URL reduced to its native id (never fetched). Anything that is not a listing URL of
 * that platform is 400 invalid_listing_url.
 */
export function idFromUrl(platform: Platform, url: string, param = 'url'): string {
  const id = listingIdFromUrl(platform, url);
  if (id === null) {
    throw new ServiceError('invalid_listing_url', `Not an accepted ${platform} listing URL. Send the native listing id, or the listing's page URL on ${platform} (https, no port or credentials).`, { param });
  }
  return id;
}

/**
 * An id that looks like a URL is resolved through the listing-URL rules (spec 4.5 accepts both),
 * for sandbox and live keys alike: a listing URL of that platform becomes its native id; any
 * other URL is 400 invalid_listing_url naming the parameter, never a listing "https://...".
 */
export function idOrUrl(platform: Platform, value: string, param: string): string {
  return /^[a-z][a-z0-9+.-]*:/i.test(value) && (value.includes('/') || value.includes('%2F') || value.includes('%2f')) ? idFromUrl(platform, value, param) : value;
}
