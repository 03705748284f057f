import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Deps } from '../deps.js';
import { bearerToken } from '../router/middleware/auth.js';

/**
 * `/metrics` for Prometheus. Revenue and traffic per route are not for the public: the page is
 * served on a listener of its own bound to 127.0.0.1 (`METRICS_PORT`), or on the public listener
 * only with `Authorization: Bearer $METRICS_TOKEN`; GET (and HEAD) only.
 */
export async function serveMetrics(deps: Deps, req: IncomingMessage, res: ServerResponse, token: string | null): Promise<void> {
  const method = req.method ?? 'GET';
  if (method !== 'GET' && method !== 'HEAD') return plain(res, 405, 'Method not allowed; use GET.', { Allow: 'GET, HEAD' });
  if (token !== null && !sameSecret(bearerToken(req.headers.authorization ?? null), token)) {
    return plain(res, 401, 'Metrics need Authorization: Bearer <METRICS_TOKEN>.', { 'WWW-Authenticate': 'Bearer realm="metrics"' });
  }
  res.setHeader('Content-Type', deps.metrics.registry.contentType);
  res.end(await deps.metrics.registry.metrics());
}

/** The metrics listener of its own (no token: only this machine can reach 127.0.0.1). */
export function createMetricsServer(deps: Deps): Server {
  return createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/metrics') return plain(res, 404, 'Only /metrics is served here.');
    serveMetrics(deps, req, res, null).catch(() => plain(res, 500, 'Metrics could not be collected.'));
  });
}

/** Compares digests, so the time taken says nothing about how much of the token matched. */
function sameSecret(given: string | null, expected: string): boolean {
  if (!given) return false;
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

function plain(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  if (res.headersSent) return void res.end();
  res.statusCode = status;
  for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
  res.setHeader('Content-Type', 'application/json');
  res.end(JSON.stringify({ error: { message } }));
}
