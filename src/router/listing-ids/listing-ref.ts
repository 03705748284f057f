import { ServiceError } from '../../domain/errors.js';
import { splitCompositeId } from '../../domain/listing-ids/composite-id.js';
import { listingIdFromUrl } from '../../domain/listing-ids/listing-url.js';
import type { Platform } from '../../domain/platforms.js';

/** Where a listing reference was sent: the parameter, and its place when the parameter is a list. */
export interface IdParam {
  param: string;
  /** 0-based position in a list parameter (listingIds), counted from 1 in messages. */
  index?: number;
}

const asParam = (where: string | IdParam): IdParam => (typeof where === 'string' ? { param: where } : where);
const named = ({ param, index }: IdParam) => (index === undefined ? param : `${param} (item ${index + 1})`);
const shown = (value: string) => (value.length > 60 ? `${value.slice(0, 60)}…` : value);

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
 * An item's `id` as search answers it (`stays_<platform>_<native id>`) reduced to the native id,
 * so the operations, their cache keys and their answers see one id whichever form was sent. An id
 * of another platform than the call's is refused naming the parameter: it is a listing the call
 * cannot mean, and reading it as that platform's would answer another property. Any other value
 * is returned as sent, for the native rules to judge.
 */
export function nativeOfComposite(platform: Platform, value: string, where: string | IdParam): string {
  const composite = splitCompositeId(value);
  if (composite === null) return value;
  if (composite.nativeId === '') {
    const at = asParam(where);
    throw new ServiceError('invalid_listing_id', `${named(at)}: "${shown(value)}" names no listing after stays_${composite.platform}_. Send an item's id as search answered it, or its platformListingId.`, { param: at.param });
  }
  if (composite.platform !== platform) {
    const at = asParam(where);
    throw new ServiceError(
      'invalid_listing_id',
      `${named(at)}: "${shown(value)}" names platform ${composite.platform}, but platform is ${platform}. Send platform ${composite.platform} with it, or the id of a listing on ${platform}.`,
      { param: at.param, subCode: 'listing_platform_mismatch' },
    );
  }
  return composite.nativeId;
}

/**
 * A listing reference as every listing parameter takes it (spec 4.5), for sandbox and live keys
 * alike: a search item's composite id becomes its native id (nativeOfComposite); an id that looks
 * like a URL is read by the listing-URL rules, a listing URL of that platform becoming its native
 * id and any other URL 400 invalid_listing_url naming the parameter, never a listing "https://...";
 * anything else is the native id, judged by the operation.
 */
export function idOrUrl(platform: Platform, value: string, where: string | IdParam): string {
  const param = asParam(where).param;
  if (/^[a-z][a-z0-9+.-]*:/i.test(value) && (value.includes('/') || value.includes('%2F') || value.includes('%2f'))) return idFromUrl(platform, value, param);
  return nativeOfComposite(platform, value, where);
}
