import { initTRPC } from '@trpc/server';
import type { OpenApiMeta } from 'trpc-to-openapi';
import { errorBody } from '../domain/errors.js';
import type { Context } from './context.js';
import { toServiceError } from './errors.js';

/**
 * One tRPC instance for every face. The error formatter puts the spec's error body under
 * `data.apiError`; the REST face sends exactly that body, the tRPC face passes it to clients.
 */
export const t = initTRPC
  .context<Context>()
  .meta<OpenApiMeta>()
  .create({
    isDev: false,
    errorFormatter({ shape, error, ctx }) {
      const apiError = errorBody(toServiceError(error), ctx?.requestId ?? 'req_unknown', ctx?.deps.config.publicUrl ?? '');
      return { ...shape, data: { ...shape.data, stack: undefined, apiError } };
    },
  });
