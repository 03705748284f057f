/**
 * Which redirect URIs a client may register (OAuth 2.1 section 2.3.1, RFC 8252 for native apps,
 * RFC 9700 section 4.1): https anywhere; http only to a loopback host (a native app's local
 * listener); a private-use scheme with a dot in it (reverse domain, e.g. `com.example.app:/cb`);
 * never a fragment, never userinfo. Returns why a URI is refused, or null when it is accepted.
 */
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);
const FORBIDDEN_SCHEMES = new Set(['javascript:', 'data:', 'file:', 'blob:', 'vbscript:', 'about:', 'ftp:', 'ws:', 'wss:']);

export function redirectUriProblem(uri: string): string | null {
  if (/[\u0000-\u001f\u007f\s]/.test(uri)) return 'must not contain spaces or control characters';
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'must be an absolute URI';
  }
  if (uri.includes('#')) return 'must not contain a fragment';
  if (url.username || url.password) return 'must not contain user information';
  if (url.protocol === 'https:') return url.hostname ? null : 'must name a host';
  if (url.protocol === 'http:') return LOOPBACK.has(url.hostname) ? null : 'may use http only for a loopback host (localhost, 127.0.0.1, [::1]); use https';
  if (FORBIDDEN_SCHEMES.has(url.protocol)) return `must not use the ${url.protocol} scheme`;
  // RFC 8252 7.1: private-use schemes are reverse domain names the app controls.
  return url.protocol.slice(0, -1).includes('.') ? null : 'a custom scheme must be a reverse domain name (e.g. com.example.app:/callback)';
}

/** What the consent page names as the place the user is sent back to. */
export function redirectTarget(uri: string): string {
  const url = new URL(uri);
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.host : `${url.protocol}//`;
}
