/**
 * Which transport errors are the platform's doing, so that only they reach its circuit breaker
 * (issue 35: a breaker hears only what the platform did). The platform's: it answered 5xx, reset
 * or refused the connection, spoke broken HTTP, or did not answer within our per-attempt timeout
 * (undici starts those clocks once the request is on a socket, never while it waits for one).
 * Ours, never counted: a pool we closed, an argument we got wrong, and any error we cannot pin
 * on the platform, since a breaker opened on our own faults switches a platform off for everyone.
 */
const PLATFORM_CODES = new Set([
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_SOCKET',
  'UND_ERR_HEADERS_OVERFLOW',
  'UND_ERR_RES_CONTENT_LENGTH_MISMATCH',
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/** The platform answered with a server error (5xx): worth a retry, and a fault of the platform. */
export class PlatformServerError extends Error {
  constructor(readonly statusCode: number) {
    super(`HTTP ${statusCode}`);
    this.name = 'PlatformServerError';
  }
}

function codeOf(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** True when `err` (or the error it wraps) is the platform's doing. */
export function isPlatformTransportFault(err: unknown): boolean {
  if (err instanceof PlatformServerError) return true;
  for (let e: unknown = err, depth = 0; e && depth < 3; e = (e as { cause?: unknown }).cause, depth++) {
    const code = codeOf(e);
    if (code && (PLATFORM_CODES.has(code) || code.startsWith('HPE_'))) return true;
  }
  return false;
}
