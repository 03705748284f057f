import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TRPCError } from '@trpc/server';
import { nodeHTTPRequestHandler } from '@trpc/server/adapters/node-http';
import type { Deps } from '../../deps.js';
import { ServiceError } from '../../domain/errors.js';
import { appRouter } from '../../router/app-router.js';
import { proceduresOf } from '../../router/trpc-internals.js';
import { createContext, type Context } from '../../router/context.js';
import { adapterRequest } from '../../router/trpc.js';
import { clientSignal } from '../../router/client-gone.js';
import { logWhenFinished } from '../rest/handler.js';
import { sendTrpcError } from './errors.js';
import { answerPlainQuery, plainQueryInput } from './direct-query.js';

const PROCEDURES = proceduresOf(appRouter);

/** True for the API's procedures; the console's (`console.*`) answer only on /console/trpc, to a session. */
function isApiProcedure(name: string): boolean {
  return PROCEDURES.has(name) && !name.startsWith('console.');
}

/** Queries are read with GET (HEAD answers the same without a body), mutations with POST. */
function allowedMethods(name: string): string[] | null {
  const procedure = isApiProcedure(name) ? PROCEDURES.get(name) : undefined;
  if (!procedure) return null;
  return procedure.type === 'mutation' ? ['POST'] : ['GET', 'HEAD'];
}
import { clientAddress } from '../client-address.js';

/**
 * The internal tRPC face for our dashboards (`/trpc`), over the same router and pipeline. Errors
 * carry the REST error body under `error.data.apiError`. The request id is drawn before anything
 * else, so every answer (even one the adapter gives before our context exists) carries it; a
 * method the procedure does not take is a 405 naming the ones it does (`Allow`).
 */
export function createTrpcHandler(deps: Deps) {
  const contexts = new WeakMap<IncomingMessage, Context>();
  const { publicUrl } = deps.config;

  async function serve(req: IncomingMessage, res: ServerResponse, name: string, requestId: string, settle: () => void): Promise<void> {
    const method = req.method ?? 'GET';
    const allowed = allowedMethods(name);
    if (!allowed) return sendTrpcError(res, new ServiceError('not_found', `No procedure ${JSON.stringify(name)} on /trpc (one call per request, no batching).`), requestId, publicUrl);
    if (!allowed.includes(method)) {
      const refused = new ServiceError('method_not_allowed', `${method} is not allowed on /trpc/${name}; use ${allowed.join(' or ')}.`);
      return sendTrpcError(res, refused, requestId, publicUrl, { Allow: allowed.join(', ') }, name);
    }
    const ctx = createContext(deps, { transport: 'trpc', requestId, authorization: req.headers.authorization, clientAddress: clientAddress(deps.config, req), signal: clientSignal(res) });
    contexts.set(req, ctx);
    const onError = (error: TRPCError) => {
      // Failures inside the pipeline were mapped (and, if ours, logged) by the entry middleware;
      // anything else is a fault of the face itself.
      if (!(error.cause instanceof ServiceError) && error.code === 'INTERNAL_SERVER_ERROR') {
        deps.log.error({ requestId, face: 'trpc', errorClass: error.cause?.constructor.name ?? error.name, message: error.message }, 'internal error');
      }
    };
    const plain = method === 'GET' ? plainQueryInput(req) : null;
    if (plain) return answerPlainQuery(res, name, plain.input, ctx, { settle, onError });
    // The adapter waits for 'drain' when a write is refused, which never comes on a socket that
    // already closed (its client left): writes to a destroyed response are dropped instead.
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    res.write = ((...args: unknown[]) => (res.destroyed ? true : write(...args))) as ServerResponse['write'];
    await adapterRequest.run({ requestId, publicUrl }, () =>
      nodeHTTPRequestHandler({
        router: appRouter,
        req,
        res,
        path: name,
        // One call per HTTP request: each call gets its own request id, and so its own ledger entry.
        allowBatching: false,
        createContext: () => contexts.get(req)!,
        responseMeta: ({ ctx, errors }) => {
          settle(); // the call's outcome (and charge) is known; only writing the answer remains
          const headers = (ctx as Context | undefined)?.res.headers ?? { 'X-Request-Id': requestId };
          // Errors the adapter answers before our context exists would go out as text/plain.
          return { headers: errors.length > 0 ? { ...headers, 'Content-Type': 'application/json' } : headers };
        },
        onError: ({ error }) => onError(error),
      }),
    );
  }

  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const requestId = deps.ids.requestId();
    res.setHeader('X-Request-Id', requestId);
    const name = (req.url ?? '').slice('/trpc/'.length).split('?')[0] ?? '';
    const procedure = isApiProcedure(name) ? name : 'unmatched'; // bounded metric labels
    let settle!: () => void;
    const bag = () => {
      const ctx = contexts.get(req);
      return ctx && { ...ctx.res, requestId: ctx.requestId };
    };
    logWhenFinished(deps, res, { face: 'trpc', requestId, method: req.method ?? 'GET', route: procedure, bag }, new Promise<void>((r) => (settle = r)));
    try {
      await serve(req, res, name, requestId, settle);
    } catch (err) {
      deps.log.error({ requestId, face: 'trpc', errorClass: err instanceof Error ? err.constructor.name : typeof err, message: err instanceof Error ? err.message : String(err) }, 'internal error');
      sendTrpcError(res, new ServiceError('internal_error', 'Something went wrong on our side. Retry, and quote the request id if it persists.'), requestId, publicUrl);
    } finally {
      settle();
    }
  };
}

