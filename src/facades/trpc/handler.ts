import type { IncomingMessage, ServerResponse } from 'node:http';
import { createHTTPHandler } from '@trpc/server/adapters/standalone';
import type { Deps } from '../../deps.js';
import { appRouter } from '../../router/app-router.js';
import { createContext, type Context } from '../../router/context.js';
import { logWhenFinished } from '../rest/handler.js';
import { clientAddress } from '../client-address.js';

/**
 * The internal tRPC face for our dashboards (`/trpc`), over the same router and pipeline. Errors
 * carry the REST error body under `error.data.apiError`.
 */
export function createTrpcHandler(deps: Deps) {
  const contexts = new WeakMap<IncomingMessage, Context>();
  const handle = createHTTPHandler({
    router: appRouter,
    basePath: '/trpc/',
    // One call per HTTP request: each call gets its own request id, and so its own ledger entry.
    allowBatching: false,
    createContext: ({ req }: { req: IncomingMessage }) => {
      const ctx = createContext(deps, { transport: 'trpc', authorization: req.headers.authorization, clientAddress: clientAddress(deps.config, req) });
      contexts.set(req, ctx);
      return ctx;
    },
    responseMeta: ({ ctx }) => ({ headers: (ctx as Context | undefined)?.res.headers ?? {} }),
  }) as (req: IncomingMessage, res: ServerResponse) => void;
  return (req: IncomingMessage, res: ServerResponse) => {
    const name = (req.url ?? '').slice('/trpc/'.length).split('?')[0] ?? '';
    const procedure = Object.hasOwn(appRouter._def.procedures, name) ? name : 'unmatched'; // bounded metric labels
    logWhenFinished(deps, res, {
      face: 'trpc',
      method: req.method ?? 'GET',
      route: procedure,
      bag: () => {
        const ctx = contexts.get(req);
        return ctx && { ...ctx.res, requestId: ctx.requestId };
      },
    });
    handle(req, res);
  };
}
