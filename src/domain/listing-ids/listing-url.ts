import type { Platform } from '../platforms.js';

/**
 * Listing URLs are parsed, never fetched: a URL is accepted only when its host is on the exact
 * allowlist of its platform (no suffix match, no userinfo, no explicit port, http(s) only) and its
 * path has the platform's listing shape. The result is the native listing id.
 */
interface UrlRule {
  hosts: ReadonlySet<string>;
  /** Returns the native id from the pathname, or null. */
  id(pathname: string): string | null;
}

const AIRBNB_TLDS = ['com', 'co.uk', 'fr', 'de', 'es', 'it', 'pt', 'nl', 'ie', 'ca', 'com.au', 'co.nz', 'com.br',
  'mx', 'ch', 'at', 'be', 'dk', 'se', 'no', 'fi', 'pl', 'gr', 'jp', 'co.in', 'com.sg', 'co.za'];
const VRBO_TLDS = ['com', 'co.uk', 'fr', 'de', 'es', 'it', 'pt', 'nl', 'com.au', 'ca', 'com.mx', 'com.br'];

function withWww(domains: string[]): ReadonlySet<string> {
  return new Set(domains.flatMap((d) => [d, `www.${d}`]));
}

const RULES: Partial<Record<Platform, UrlRule>> = {
  airbnb: {
    hosts: withWww(AIRBNB_TLDS.map((tld) => `airbnb.${tld}`)),
    id: (p) => /^\/rooms\/(?:plus\/)?(\d{1,20})\/?$/.exec(p)?.[1] ?? null,
  },
  booking: {
    hosts: withWww(['booking.com']),
    // /hotel/<country>/<slug>(.<lang>).html -> "<country>/<slug>"
    id: (p) => {
      const m = /^\/hotel\/([a-z]{2})\/([a-z0-9][a-z0-9-]{0,200})(?:\.[a-z]{2}(?:-[a-z]{2})?)?\.html$/.exec(p);
      return m ? `${m[1]}/${m[2]}` : null;
    },
  },
  vrbo: {
    hosts: withWww(VRBO_TLDS.map((tld) => `vrbo.${tld}`)),
    // /1234567 or /1234567ha. Vrbo numbers its two listing namespaces separately (1234567 and
    // 1234567ha can be two properties), so the id is the property id verbatim, "ha" included.
    id: (p) => /^\/(\d{3,12}(?:ha)?)\/?$/.exec(p)?.[1] ?? null,
  },
  google: {
    hosts: new Set(['www.google.com', 'google.com']),
    id: (p) => /^\/travel\/hotels\/(?:[^/]{1,100}\/)?entity\/([A-Za-z0-9_-]{8,200})(?:\/[a-z]*)?\/?$/.exec(p)?.[1] ?? null,
  },
};

/** The native listing id, or null when the URL is not a listing URL of that platform. */
export function listingIdFromUrl(platform: Platform, raw: string): string | null {
  const rule = RULES[platform];
  if (!rule || raw.length > 2048) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  if (url.username || url.password || url.port) return null;
  if (!rule.hosts.has(url.hostname)) return null;
  return rule.id(url.pathname);
}
