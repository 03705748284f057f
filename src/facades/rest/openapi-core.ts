import type { IncomingMessage, ServerResponse } from 'node:http';
import { TRPCError, type AnyTRPCProcedure } from '@trpc/server';
import { getErrorShape } from '@trpc/server/unstable-core-do-not-import';
import type { AppRouter } from '../../router/app-router.js';
import type { Context } from '../../router/context.js';
import { envelopeBytes } from '../envelope-json.js';

/**
 * The REST face's core: what trpc-to-openapi's node-http handler does for each call (find the
 * procedure by method and path, build its input from the query or body plus path parameters,
 * call it through the router's caller, answer with responseMeta's status and headers), without
 * its per-call costs that the profile showed (issue 15): a fetch `Request` built for a signal we
 * do not use (our context has its own), the input schema walked on every call, and our own
 * serialization of a memoized page. trpc-to-openapi still generates the OpenAPI document and
 * coerces the schemas, exactly as before; matching and input rules mirror its adapter (3.3.0).
 */

/** trpc-to-openapi's status for each tRPC error code (adapters/node-http/errors). */
const STATUS: Record<string, number> = {
  PARSE_ERROR: 400, BAD_REQUEST: 400, NOT_FOUND: 404, INTERNAL_SERVER_ERROR: 500, UNAUTHORIZED: 401, FORBIDDEN: 403,
  TIMEOUT: 408, CONFLICT: 409, CLIENT_CLOSED_REQUEST: 499, PRECONDITION_FAILED: 412, PAYLOAD_TOO_LARGE: 413,
  METHOD_NOT_SUPPORTED: 405, UNSUPPORTED_MEDIA_TYPE: 415, TOO_MANY_REQUESTS: 429, UNPROCESSABLE_CONTENT: 422,
  NOT_IMPLEMENTED: 501, BAD_GATEWAY: 502, SERVICE_UNAVAILABLE: 503, GATEWAY_TIMEOUT: 504, PAYMENT_REQUIRED: 402,
  PRECONDITION_REQUIRED: 428,
};

type ZodLike = { _zod?: { def?: { type?: string; innerType?: ZodLike; element?: ZodLike; in?: ZodLike; out?: ZodLike; getter?: () => ZodLike } }; shape?: Record<string, ZodLike> };
const kind = (s: ZodLike | undefined) => s?._zod?.def?.type;

/** trpc-to-openapi's unwrapZodType(schema, true), for the kinds our inputs use. */
function unwrap(s: ZodLike | undefined): ZodLike | undefined {
  const def = s?._zod?.def;
  switch (def?.type) {
    case 'nullable': case 'optional': case 'default': case 'prefault': return unwrap(def.innerType);
    case 'lazy': return unwrap(def.getter!());
    case 'pipe': return unwrap(kind(def.out) === 'transform' ? def.in : def.out);
    default: return s;
  }
}

/**
 * trpc-to-openapi's coerceSchema: query values are strings, so the number, boolean, bigint and
 * date fields of an object input (and of nested objects) coerce. It mutates the shared schema,
 * as the library did on every REST call; here once per route, on its first call, as before.
 */
function coerce(schema: ZodLike): void {
  for (const field of Object.values(schema.shape ?? {})) {
    let u: ZodLike | undefined = field;
    for (;;) {
      const def: NonNullable<ZodLike['_zod']>['def'] = u?._zod?.def;
      if (def?.type === 'array') u = def.element;
      else if (def?.type === 'nullable' || def?.type === 'optional' || def?.type === 'default' || def?.type === 'prefault') u = def.innerType;
      else if (def?.type === 'lazy') u = def.getter!();
      else break;
    }
    const k = kind(u);
    if (k === 'number' || k === 'boolean' || k === 'bigint' || k === 'date') (u!._zod!.def as { coerce?: boolean }).coerce = true;
    else if (k === 'object') coerce(u!);
  }
}

interface Route {
  method: string;
  pattern: RegExp;
  path: string;
  procedure: AnyTRPCProcedure;
  /** Undefined input (a void-like schema) or an object built from query/body and path. */
  voidInput: boolean;
  /** Query keys read as arrays: a single value is wrapped (`?platforms=airbnb`). */
  arrayKeys: ReadonlySet<string>;
  /** Coerces the input schema once, on the route's first call. */
  prepare: (() => void) | null;
}

function routesOf(router: AppRouter): Route[] {
  const routes: Route[] = [];
  for (const [path, procedure] of Object.entries(router._def.procedures as unknown as Record<string, AnyTRPCProcedure>)) {
    const openapi = (procedure._def.meta as { openapi?: { method: string; path: string; enabled?: boolean } } | undefined)?.openapi;
    if (!openapi || openapi.enabled === false || procedure._def.type === 'subscription') continue;
    const template = `/${openapi.path.replace(/^\/|\/$/g, '')}`;
    const input = unwrap((procedure._def as { inputs: ZodLike[] }).inputs[0]);
    const voidInput = ['void', 'undefined', 'never'].includes(kind(input) ?? '');
    const arrayKeys = new Set<string>();
    if (kind(input) === 'object') {
      for (const [key, shape] of Object.entries(input!.shape ?? {})) {
        if (kind(shape) === 'array' || (kind(shape) === 'optional' && kind(shape._zod!.def!.innerType) === 'array')) arrayKeys.add(key);
      }
    }
    const pattern = new RegExp(`^${template.replace(/\{(.+?)\}/g, (_, key: string) => `(?<${key}>[^/]+)`)}$`, 'i');
    const route: Route = { method: openapi.method, pattern, path, procedure, voidInput, arrayKeys, prepare: null };
    if (kind(input) === 'object') {
      route.prepare = () => {
        coerce(input!);
        route.prepare = null;
      };
    }
    routes.push(route);
  }
  return routes;
}

export interface CoreOptions {
  router: AppRouter;
  /** The per-request context (built by the face before the call). */
  contextOf(req: IncomingMessage): Context;
  onError(error: TRPCError, req: IncomingMessage): void;
  responseMeta(ctx: Context, failed: boolean): { status?: number; headers: Record<string, string> };
}

type RestRequest = IncomingMessage & { query?: Record<string, string[]>; body?: unknown };

/** Answers one matched REST call; `path` is the URL path without the query. */
export function createOpenApiCore(opts: CoreOptions) {
  const routes = routesOf(opts.router);

  function send(res: ServerResponse, status: number, headers: Record<string, string>, body: string | Buffer[] | undefined): void {
    res.statusCode = status;
    res.setHeader('Content-Type', 'application/json');
    for (const [key, value] of Object.entries(headers)) if (value !== undefined) res.setHeader(key, value);
    if (!Array.isArray(body)) return void res.end(body);
    // Chunks of one body: its length said up front, written corked so they leave in one write.
    res.setHeader('Content-Length', body.reduce((n, chunk) => n + chunk.length, 0));
    res.cork();
    for (let i = 0; i < body.length - 1; i++) res.write(body[i]);
    res.end(body[body.length - 1]);
    res.uncork();
  }

  return async function handle(req: RestRequest, res: ServerResponse, path: string): Promise<void> {
    const method = req.method ?? 'GET';
    const normalized = `/${path.replace(/^\/|\/$/g, '')}`;
    let route: Route | undefined;
    let pathInput: Record<string, string> = {};
    for (const r of routes) {
      if (r.method !== method) continue;
      const m = r.pattern.exec(normalized);
      if (m) {
        [route, pathInput] = [r, { ...m.groups }];
        break;
      }
    }
    const ctx = opts.contextOf(req);
    let input: Record<string, unknown> | undefined;
    try {
      if (!route) throw new TRPCError({ code: 'NOT_FOUND', message: 'Not found' });
      route.prepare?.();
      if (!route.voidInput) input = { ...(method === 'GET' ? queryInput(req.query ?? {}, route.arrayKeys) : (req.body as object)), ...pathInput };
      // The procedure itself, called as tRPC's createCaller calls it, without building a caller
      // proxy and walking it per request.
      const callInput = input;
      const data = await route.procedure({ path: route.path, getRawInput: async () => callInput, ctx, type: route.procedure._def.type, signal: undefined, batchIndex: 0 });
      const meta = opts.responseMeta(ctx, false);
      const bytes = data !== null && typeof data === 'object' ? envelopeBytes(data) : undefined;
      send(res, meta.status ?? 200, meta.headers, bytes ?? JSON.stringify(data));
    } catch (cause) {
      const error = cause instanceof TRPCError ? cause : new TRPCError({ code: 'INTERNAL_SERVER_ERROR', message: 'Internal server error', cause });
      opts.onError(error, req);
      const meta = opts.responseMeta(ctx, true);
      const shape = getErrorShape({ config: opts.router._def._config, error, type: route?.procedure._def.type ?? 'unknown', path: route?.path, input, ctx });
      send(res, meta.status ?? STATUS[error.code] ?? 500, meta.headers, JSON.stringify(shape));
    }
  };
}

/** trpc-to-openapi's query reading: one value as a string, repeated values as an array, array fields always arrays. */
function queryInput(query: Record<string, string[]>, arrayKeys: ReadonlySet<string>): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const key of Object.keys(query)) {
    const values = query[key]!;
    input[key] = values.length === 1 && !arrayKeys.has(key) ? values[0] : values;
  }
  return input;
}
