import type { IncomingMessage, ServerResponse } from 'node:http';
import { TRPCError } from '@trpc/server';
import { ServiceError, errorBody } from '../../domain/errors.js';
import type { Context } from '../../router/context.js';
import { toServiceError } from '../../router/errors.js';
import { ClientGone } from '../../router/client-gone.js';
import { envelopeBytes } from '../envelope-json.js';
import type { Route } from './routes.js';

/**
 * The REST face's core: what trpc-to-openapi's node-http handler does for each call (build the
 * matched procedure's input from the query or body plus path parameters, call it, answer with
 * responseMeta's status and headers), without its per-call costs that the profile showed (issue
 * 15): a fetch `Request` built for a signal we do not use (our context has its own), the input
 * schema walked on every call, and our own serialization of a memoized page. trpc-to-openapi
 * still generates the OpenAPI document; matching and input rules mirror its adapter (3.3.0).
 * A failure answers the status of its ServiceError (the error table's, nothing in between) with
 * the body built once, here.
 */
export interface CoreOptions {
  /** The per-request context (built by the face before the call). */
  contextOf(req: IncomingMessage): Context;
  onError(error: TRPCError, req: IncomingMessage): void;
  responseMeta(ctx: Context, failed: boolean): { status?: number; headers: Record<string, string> };
}

type RestRequest = IncomingMessage & { query?: Record<string, string[]>; body?: unknown };

/** nginx's status for a request whose client closed the connection before the answer. */
const CLIENT_CLOSED = 499;

function send(res: ServerResponse, status: number, headers: Record<string, string>, body: string | Buffer[] | undefined): void {
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json');
  for (const [key, value] of Object.entries(headers)) if (value !== undefined) res.setHeader(key, value);
  if (!Array.isArray(body)) return void res.end(body);
  // Chunks of one body, copied into one buffer and ended with it: a copy of 22 kB costs less than
  // the stream's work per written chunk (the profile's socket write, issue 29), and the socket
  // then gets the head and the body in one write, as a bare handler's answer does.
  let length = 0;
  for (const chunk of body) length += chunk.length;
  const whole = Buffer.allocUnsafe(length);
  let at = 0;
  for (const chunk of body) at += chunk.copy(whole, at);
  res.setHeader('Content-Length', length);
  res.end(whole);
}

/**
 * Path parameters arrive percent-encoded (stack-notes pitfall 4) and are decoded here; one that
 * cannot be is refused after auth and rate limit, like any bad input (the context's inputError).
 */
function decodePath(ctx: Context, params: Record<string, string>): Record<string, string> {
  const decoded: Record<string, string> = {};
  for (const [key, value] of Object.entries(params)) {
    try {
      decoded[key] = decodeURIComponent(value);
    } catch {
      decoded[key] = value;
      ctx.inputError ??= new ServiceError('invalid_request', `${key} is not a valid percent-encoded path segment.`, { subCode: 'invalid_encoding', param: key });
    }
  }
  return decoded;
}

/** Answers one call whose route was matched (routes.ts). */
export function createOpenApiCore(opts: CoreOptions) {
  return async function handle(req: RestRequest, res: ServerResponse, route: Route, pathParams: Record<string, string>): Promise<void> {
    const ctx = opts.contextOf(req);
    let input: Record<string, unknown> | undefined;
    try {
      if (route.coerce) {
        route.coerce();
        route.coerce = null;
      }
      if (!route.voidInput) input = { ...(route.method === 'GET' ? queryInput(req.query ?? {}, route.arrayKeys) : (req.body as object)), ...decodePath(ctx, pathParams) };
      // A GET's input is its path and query string (req.url), nothing else: its parse is remembered.
      const data = await route.procedure.call(ctx, input, route.method === 'GET' && input ? { key: req.url!, memo: route.parsedInputs } : undefined);
      const meta = opts.responseMeta(ctx, false);
      const bytes = data !== null && typeof data === 'object' ? envelopeBytes(data) : undefined;
      send(res, meta.status ?? 200, meta.headers, bytes ?? JSON.stringify(data));
    } catch (cause) {
      const error = cause instanceof TRPCError ? cause : new TRPCError({ code: 'INTERNAL_SERVER_ERROR', message: 'Internal server error', cause });
      opts.onError(error, req);
      const meta = opts.responseMeta(ctx, true);
      const failure = toServiceError(error);
      send(res, error.cause instanceof ClientGone ? CLIENT_CLOSED : failure.status, meta.headers, JSON.stringify(errorBody(failure, ctx.requestId, ctx.deps.config.publicUrl)));
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
