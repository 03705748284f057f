import { AsyncLocalStorage } from 'node:async_hooks';
import { initTRPC } from '@trpc/server';
import type { OpenApiMeta } from 'trpc-to-openapi';
import { errorBody } from '../domain/errors.js';
import type { Context } from './context.js';
import { toServiceError } from './errors.js';

/**
 * The request a tRPC HTTP adapter call serves. The adapter formats some errors (unreadable input,
 * a wrong media type) before it asks for our context; the formatter then takes the request id
 * and docs base from here, so the error body is built once, complete.
 */
export const adapterRequest = new AsyncLocalStorage<{ requestId: string; publicUrl: string }>();

/**
 * One tRPC instance for every face. The error formatter puts the spec's error body under
 * `data.apiError`, which the tRPC faces pass to clients.
 */
export const t = initTRPC
  .context<Context>()
  .meta<OpenApiMeta>()
  .create({
    isDev: false,
    errorFormatter({ shape, error, ctx }) {
      const request = ctx ? { requestId: ctx.requestId, publicUrl: ctx.deps.config.publicUrl } : adapterRequest.getStore();
      const serviceError = toServiceError(error);
      const apiError = errorBody(serviceError, request?.requestId ?? 'req_unknown', request?.publicUrl ?? '');
      // Our status, not the tRPC code's: tRPC's adapters answer data.httpStatus (410 has no tRPC code).
      return { ...shape, data: { ...shape.data, httpStatus: serviceError.status, stack: undefined, apiError } };
    },
  });
