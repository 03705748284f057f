import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Deps } from '../../deps.js';
import { ServiceError, errorBody } from '../../domain/errors.js';
import { appRouter } from '../../router/app-router.js';
import { createContext, type Context } from '../../router/context.js';
import type { OpenApiDocument } from './openapi.js';
import { parseQuery, readJsonBody } from './request.js';
import { readRetryParams } from './retries/retry-params.js';
import { routeTable, type RouteMatch } from './routes.js';
import { clientSignal } from '../../router/client-gone.js';
import { rateLimitHeaders } from '../../router/middleware/rate-limit.js';
import { clientAddress } from '../client-address.js';
import { addressBucket } from '../../domain/accounts/rate-buckets.js';
import { createOpenApiCore } from './openapi-core.js';

type RestRequest = IncomingMessage & { query?: Record<string, string[]>; body?: unknown };

interface RequestRecord {
  /** `mcp` lines carry no credits: a tool call's charge is in its own result (meta.creditsCharged). */
  face: string;
  /** Known up front on REST; on tRPC it is read from the context when the response is done. */
  requestId?: string;
  method: string;
  route: string;
  bag(): { requestId?: string; keyPrefix?: string; creditsCharged?: number } | undefined;
}

/**
 * One structured line per request (never the key, only its prefix), and the request counter,
 * written on `close` so a request whose client went away is counted too: it is logged with
 * status 499 and `aborted: true`, once its handler is done (`settled`), so a charge that was
 * already committed shows in `credits`.
 */
export function logWhenFinished(deps: Deps, res: ServerResponse, r: RequestRecord, settled: Promise<unknown> = Promise.resolve()): void {
  const started = performance.now();
  res.on('close', () => {
    const aborted = !res.writableFinished;
    // Anonymous arrows: under tsx (npm start) a named one is renamed at run time on every request.
    if (aborted) void settled.then(() => writeRequestLog(deps, res, r, started, aborted), () => writeRequestLog(deps, res, r, started, aborted));
    else writeRequestLog(deps, res, r, started, aborted);
  });
}

function writeRequestLog(deps: Deps, res: ServerResponse, r: RequestRecord, started: number, aborted: boolean): void {
  const bag = r.bag();
  const status = aborted ? CLIENT_CLOSED : res.statusCode;
  deps.metrics.observeRequest(r.face, r.route, status);
  deps.log.info(
    { requestId: r.requestId ?? bag?.requestId, face: r.face, method: r.method, route: r.route, status, ...(aborted ? { aborted: true } : {}), keyPrefix: bag?.keyPrefix, credits: r.face === 'mcp' ? undefined : (bag?.creditsCharged ?? 0), durationMs: Math.round((performance.now() - started) * 100) / 100 },
    'request',
  );
}

/** nginx's status for a request whose client closed the connection before the answer. */
const CLIENT_CLOSED = 499;

/** Answers given before the pipeline still count against the caller's address bucket (spec 8.1). */
export async function addressRateHeaders(deps: Deps, req: IncomingMessage): Promise<Record<string, string>> {
  const decision = await deps.limiter.take(addressBucket(clientAddress(deps.config, req)), deps.config.anonymousPerMinute);
  return rateLimitHeaders(decision, deps.clock.now().getTime(), 'address');
}

export function sendError(res: ServerResponse, err: ServiceError, requestId: string, deps: Deps, headers: Record<string, string> = {}): void {
  if (res.headersSent) return;
  res.statusCode = err.status;
  res.setHeader('Content-Type', 'application/json');
  res.setHeader('X-Request-Id', requestId);
  for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
  if (err.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(err.retryAfterSeconds));
  res.end(JSON.stringify(errorBody(err, requestId, deps.config.publicUrl)));
}

/** The REST face: `/v1/*` through our core (openapi-core.ts, trpc-to-openapi's rules) on the shared router. */
export function createRestHandler(deps: Deps, openApiDocument: OpenApiDocument) {
  const routes = routeTable(appRouter, openApiDocument.paths as Parameters<typeof routeTable>[1]);
  const contexts = new WeakMap<IncomingMessage, Context>();

  const handle = createOpenApiCore({
    contextOf: (req) => contexts.get(req)!,
    onError: (error, req) => {
      // Failures inside the pipeline were mapped (and, if ours, logged) by the entry middleware (mapFailure); anything
      // else is a fault of the face itself, logged here with the request's id.
      if (error.cause instanceof ServiceError || error.code !== 'INTERNAL_SERVER_ERROR') return;
      const requestId = contexts.get(req)?.requestId;
      deps.log.error({ requestId, face: 'rest', errorClass: error.cause?.constructor.name ?? error.name, message: error.message }, 'internal error');
    },
    responseMeta: (c, failed) => (failed ? { headers: c.res.headers } : { status: c.res.status ?? 200, headers: c.res.headers }),
  });

  return async function restHandler(req: RestRequest, res: ServerResponse, path: string, search: string): Promise<void> {
    const requestId = deps.ids.requestId();
    res.setHeader('X-Request-Id', requestId);
    const method = req.method ?? 'GET';
    const match = routes.match(method, path);
    let settle!: () => void;
    const record: RequestRecord = {
      face: 'rest',
      requestId,
      method,
      route: match.template ?? (path === '/openapi.json' ? path : 'unmatched'),
      bag() {
        return contexts.get(req)?.res;
      },
    };
    logWhenFinished(deps, res, record, new Promise<void>((r) => (settle = r)));
    try {
      await serve(req, res, path, search, requestId, method, match);
    } finally {
      settle();
    }
  };

  async function serve(req: RestRequest, res: ServerResponse, path: string, search: string, requestId: string, method: string, match: RouteMatch): Promise<void> {
    if (path === '/openapi.json' && (method === 'GET' || method === 'HEAD')) {
      res.setHeader('Content-Type', 'application/json');
      res.end(JSON.stringify(openApiDocument));
      return;
    }
    const { allowed, route } = match;
    if (!route) {
      const headers = await addressRateHeaders(deps, req);
      if (allowed.length === 0) return sendError(res, new ServiceError('not_found', `No endpoint at ${path}. See /docs.`), requestId, deps, headers);
      const methods = allowed.join(', ');
      return sendError(res, new ServiceError('method_not_allowed', `${method} is not allowed on ${path}; use ${allowed.join(' or ')}.`), requestId, deps, { ...headers, Allow: methods });
    }

    let inputError: ServiceError | undefined;
    req.url = search ? `${path}?${search}` : path;
    req.query = parseQuery(search);
    // Typos are tolerated (a client keeps working when we add a parameter) but never silent.
    const unknownParams = Object.keys(req.query).filter((name) => !route.parameterNames.has(name));
    if (method === 'POST') {
      try {
        req.body = await readJsonBody(req);
      } catch (err) {
        if (!(err instanceof ServiceError)) throw err;
        inputError = err;
        req.body = {};
      }
      // The core handler checks the media type itself; the body is already parsed and checked.
      req.headers['content-type'] = 'application/json';
    }
    const retry = readRetryParams(req, req.query, req.body);
    const ctx = createContext(deps, {
      transport: 'rest',
      requestId,
      retry,
      authorization: req.headers.authorization,
      clientAddress: clientAddress(deps.config, req),
      signal: clientSignal(res),
      ...(inputError ? { inputError } : {}),
      unknownParams,
    });
    contexts.set(req, ctx);
    await handle(req, res, route, match.pathParams);
  }
}
export type RestHandler = ReturnType<typeof createRestHandler>;
