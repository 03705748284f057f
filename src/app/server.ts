import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Deps } from '../deps.js';
import { ServiceError } from '../domain/errors.js';
import { addressRateHeaders, createRestHandler, logWhenFinished, sendError } from '../facades/rest/handler.js';
import { renderReferencePage } from '../facades/docs/reference-page.js';
import { renderErrorCatalogue } from '../facades/docs/error-catalogue-page.js';
import { guideIndex, renderGuidePages } from '../facades/docs/guides-page.js';
import { scalarBundle } from '../facades/docs/assets.js';
import { ICON_PATH, ICON_SVG } from '../facades/docs/icon.js';
import { createTrpcHandler } from '../facades/trpc/handler.js';
import { createConsoleHandler } from '../facades/console/handler.js';
import { sendTrpcError } from '../facades/trpc/errors.js';
import { buildOpenApiDocument } from '../facades/rest/openapi.js';
import { appRouter } from '../router/app-router.js';
import { capabilityMatrix } from '../domain/capabilities.js';
import { loadResponseExamples } from '../facades/rest/openapi/examples.js';
import { createOAuthApp } from '../facades/mcp/oauth/app.js';
import { createMcpHttp } from '../facades/mcp/http.js';
import { toolDefinitions } from '../facades/mcp/definitions.js';
import { renderLlmsTxt } from '../facades/agents/llms-txt.js';
import { CHANGELOG_MARKDOWN } from '../changelog.js';
import { serverCard } from '../facades/agents/server-card.js';
import { serveMetrics } from '../facades/metrics.js';
import { toServiceError } from '../router/errors.js';
import { describeFailure } from '../router/dependency-errors.js';

/** These faces' requests carry no request bag (module-level: see README, "Hot-path code under tsx"). */
const noBag = (): undefined => undefined;

/**
 * One node:http listener for every face (design.md section 2): REST under /v1, internal tRPC
 * under /trpc, the reference page, and health probes. Anything else is a JSON 404.
 */
export interface HttpServerOptions {
  /** The OAuth endpoints' own per-address limits (express-rate-limit); tests turn them off. */
  oauthRateLimit?: boolean;
  /**
   * Whether start-up is over (the demo account and its key file written, the start-up events
   * logged). The listener is bound before then, so `/healthz` and `/readyz` answer 503 until it
   * is: a script that waits for health finds what start-up promised. Absent: always started.
   */
  started?: () => boolean;
}

export function createHttpServer(deps: Deps, options: HttpServerOptions = {}): Server {
  return createServer(createRequestHandler(deps, options));
}

/** The request handler alone, for a listener bound before the public URL is known (PORT=0). */
export function createRequestHandler(deps: Deps, options: HttpServerOptions = {}): (req: IncomingMessage, res: ServerResponse) => void {
  const capabilities = { sandbox: capabilityMatrix(deps.platforms.sandbox), live: capabilityMatrix(deps.platforms.live) };
  const openApi = buildOpenApiDocument(appRouter, deps.config.publicUrl, { capabilities, today: deps.clock.now().toISOString().slice(0, 10), responseExamples: loadResponseExamples(), creditSchedule: deps.config.creditSchedule, deprecations: deps.deprecations });
  const rest = createRestHandler(deps, openApi);
  const trpc = createTrpcHandler(deps);
  const docsHtml = renderReferencePage('Accommodation Data Service API');
  const errorsHtml = renderErrorCatalogue();
  const guidePages = renderGuidePages();
  const guides = guideIndex();
  const scalar = scalarBundle();
  const oauth = createOAuthApp(deps, { rateLimit: options.oauthRateLimit ?? true });
  const tools = toolDefinitions(deps);
  const mcp = createMcpHttp(deps, oauth.provider, tools);
  // The front door for agents, generated once from the router's document, the tools and the error table.
  const agentPages: Record<string, { type: string; body: string }> = {
    '/llms.txt': { type: 'text/markdown; charset=utf-8', body: renderLlmsTxt(deps.config.publicUrl, openApi, tools, false, guides) },
    '/llms-full.txt': { type: 'text/markdown; charset=utf-8', body: renderLlmsTxt(deps.config.publicUrl, openApi, tools, true, guides) },
    '/changelog': { type: 'text/markdown; charset=utf-8', body: CHANGELOG_MARKDOWN },
    '/.well-known/mcp.json': { type: 'application/json', body: JSON.stringify(serverCard(deps.config.publicUrl, tools), null, 2) },
  };
  const developerConsole = createConsoleHandler(deps);

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = req.url ?? '/';
    const q = raw.indexOf('?');
    const path = q < 0 ? raw : raw.slice(0, q);
    const search = q < 0 ? '' : raw.slice(q + 1);
    // WHATWG URL parsing (used by the REST library) would resolve these; refuse them so every
    // part of the service routes the same path.
    if (/\\|%5c|(^|\/)(\.|%2e){1,2}(\/|$)/i.test(path)) {
      const headers = await addressRateHeaders(deps, req);
      const refused = new ServiceError('not_found', 'No endpoint at this path (dot segments and backslashes are not allowed).');
      if (path.startsWith('/trpc/')) return sendTrpcError(res, refused, deps.ids.requestId(), deps.config.publicUrl, headers);
      return sendError(res, refused, deps.ids.requestId(), deps, headers);
    }
    if (path === '/v1' || path.startsWith('/v1/')) return rest(req, res, path.slice(3) || '/', search);
    if (path.startsWith('/trpc/')) return trpc(req, res);
    // The faces above log their own requests (with request id, key prefix and credits).
    logWhenFinished(deps, res, { face: path === '/mcp' ? 'mcp' : 'http', method: req.method ?? 'GET', route: routeLabel(path), bag: noBag });
    if (path === '/mcp') return mcp(req, res, search);
    if (path === '/console' || path.startsWith('/console/')) return developerConsole(req, res, path);
    // A path the OAuth app does not serve (`/.well-known/oauth-protected-resource/foo`) comes back
    // here as Express's `next`, so it gets our JSON 404 rather than Express's HTML page.
    if (OAUTH_PATHS.test(path)) return oauth.serve(req, res, () => notFound(res, path));
    if ((path === '/healthz' || path === '/readyz') && options.started && !options.started()) return json(res, 503, { status: 'starting' });
    if (path === '/healthz') return json(res, 200, { status: 'ok' });
    if (path === '/metrics' && deps.config.metrics.token) return serveMetrics(deps, req, res, deps.config.metrics.token);
    if (path === '/readyz') return (await deps.ready()) ? json(res, 200, { status: 'ready' }) : json(res, 503, { status: 'not_ready' });
    if (path === '/docs' || path === '/docs/') return html(res, docsHtml);
    if (path === '/docs/errors') return html(res, errorsHtml);
    const guide = guidePages.get(path.endsWith('/') ? path.slice(0, -1) : path);
    if (guide) return html(res, guide);
    const page = agentPages[path];
    if (page) {
      res.setHeader('Content-Type', page.type);
      res.setHeader('Cache-Control', 'public, max-age=300');
      res.setHeader('Access-Control-Allow-Origin', '*');
      res.end(page.body);
      return;
    }
    if (path === ICON_PATH) {
      res.setHeader('Content-Type', 'image/svg+xml');
      res.setHeader('Cache-Control', 'public, max-age=86400');
      res.end(ICON_SVG);
      return;
    }
    if (path === '/docs/scalar.js') {
      res.setHeader('Content-Type', 'text/javascript; charset=utf-8');
      res.setHeader('Cache-Control', 'public, max-age=86400');
      res.end(scalar());
      return;
    }
    notFound(res, path);
  }

  function notFound(res: ServerResponse, path: string): void {
    sendError(res, new ServiceError('not_found', `No endpoint at ${path}. The API lives under /v1; see /docs.`), deps.ids.requestId(), deps);
  }

  return (req, res) => {
    route(req, res).catch((err: unknown) => {
      // The face may already have named the request; a database outage is a 503, not a 500.
      const requestId = String(res.getHeader('X-Request-Id') ?? deps.ids.requestId());
      const failure = toServiceError(err);
      const level = failure.code === 'internal_error' ? 'error' : 'warn';
      deps.log[level]({ requestId, ...describeFailure(err) }, 'unhandled error in HTTP front router');
      sendError(res, failure, requestId, deps);
    });
  };
}

const FIXED_ROUTES = new Set([ICON_PATH, '/llms.txt', '/llms-full.txt', '/changelog', '/.well-known/mcp.json', '/mcp', '/healthz', '/readyz', '/metrics', '/docs', '/docs/', '/docs/errors', '/docs/scalar.js']);

/** A bounded metric label for a path outside /v1 and /trpc. */
function routeLabel(path: string): string {
  if (FIXED_ROUTES.has(path)) return path;
  if (path === '/docs/guides' || path.startsWith('/docs/guides/')) return '/docs/guides';
  if (path === '/console' || path.startsWith('/console/')) return '/console';
  return OAUTH_PATHS.test(path) ? 'oauth' : 'unmatched';
}

/** Served by the OAuth authorization server (mounted at the origin root, as MCP clients expect). */
const OAUTH_PATHS = /^\/(\.well-known\/oauth-[a-z-]+(\/.*)?|authorize|token|register|revoke|oauth\/sign-in)$/;

function json(res: ServerResponse, status: number, body: unknown): void {
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json');
  res.end(JSON.stringify(body));
}

function html(res: ServerResponse, body: string): void {
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.end(body);
}
