import type { IncomingMessage } from 'node:http';
import { MAX_WAIT_SECONDS, type RetryRequest } from '../../../router/retries/retry.js';

/**
 * RFC 7240 `Prefer: wait=N` (several preferences may share the header: `respond-async, wait=5`).
 * A preference the server cannot read is ignored, as the RFC asks; N is capped at 30 s.
 */
export function preferredWait(header: string | undefined): number | null {
  if (!header) return null;
  for (const preference of header.split(',')) {
    const [token] = preference.split(';');
    const m = /^\s*wait\s*=\s*"?(\d{1,6})"?\s*$/i.exec(token ?? '');
    if (m) return Number(m[1]) > 0 ? Math.min(MAX_WAIT_SECONDS, Number(m[1])) : null;
  }
  return null;
}

/**
 * Reads the retry controls of a REST request: the Idempotency-Key and Prefer headers, and the
 * `callbackUrl` parameter, which is taken out of the query (GET) or the JSON body (POST) so the
 * operation's own input stays what MCP and tRPC send.
 */
export function readRetryParams(req: IncomingMessage, query: Record<string, string[]>, body: unknown): RetryRequest {
  let callbackUrl: unknown;
  if (query.callbackUrl) {
    callbackUrl = query.callbackUrl.length === 1 ? query.callbackUrl[0] : query.callbackUrl;
    delete query.callbackUrl;
  }
  if (body && typeof body === 'object' && !Array.isArray(body) && 'callbackUrl' in body) {
    callbackUrl = (body as Record<string, unknown>).callbackUrl;
    delete (body as Record<string, unknown>).callbackUrl;
  }
  const key = req.headers['idempotency-key'];
  return {
    idempotencyKey: typeof key === 'string' ? key : null,
    waitSeconds: preferredWait([req.headers.prefer].flat().join(',') || undefined),
    callbackUrl,
  };
}
