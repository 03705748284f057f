import type { IncomingMessage, ServerResponse } from 'node:http';
import { createHTTPHandler } from '@trpc/server/adapters/standalone';
import type { Deps } from '../../deps.js';
import { appRouter } from '../../router/app-router.js';
import { createContext, type Context } from '../../router/context.js';

/**
 * The internal tRPC face for our dashboards (`/trpc`), over the same router and pipeline. Errors
 * carry the REST error body under `error.data.apiError`.
 */
export function createTrpcHandler(deps: Deps) {
  return createHTTPHandler({
    router: appRouter,
    basePath: '/trpc/',
    createContext: ({ req }: { req: IncomingMessage }) =>
      createContext(deps, { transport: 'trpc', authorization: req.headers.authorization, clientAddress: req.socket.remoteAddress }),
    responseMeta: ({ ctx }) => ({ headers: (ctx as Context | undefined)?.res.headers ?? {} }),
  }) as (req: IncomingMessage, res: ServerResponse) => void;
}
