import { TRPCError } from '@trpc/server';
import type { MiddlewareResult } from '../trpc-internals.js';
import { t } from '../trpc.js';
import { toServiceError, toTRPCError } from '../errors.js';
import { ClientGone } from '../client-gone.js';
import { describeFailure } from '../dependency-errors.js';
import type { Context } from '../context.js';

/**
 * Every failure leaves as a TRPCError whose cause is a ServiceError with the spec's code, so all
 * faces agree on status and body (conventions rule 8). Internal faults are logged with the request
 * id; the client sees only `internal_error`. A successful result passes through unchanged.
 */
export async function mapFailure<R extends MiddlewareResult<object>>(
  ctx: Context,
  path: string,
  getRawInput: () => Promise<unknown>,
  result: R,
): Promise<R> {
  if (result.ok) return result;
  if (result.error.cause instanceof ClientGone) {
    ctx.deps.log.info({ requestId: ctx.requestId, path }, result.error.cause.message);
    throw new TRPCError({ code: 'CLIENT_CLOSED_REQUEST', message: result.error.cause.message, cause: result.error.cause });
  }
  const rawInput = await getRawInput().catch(() => undefined);
  const err = toServiceError(result.error, rawInput);
  // Never the error itself: a failed query's message carries its SQL and parameters.
  if (err.code === 'internal_error') ctx.deps.log.error({ requestId: ctx.requestId, path, ...describeFailure(result.error.cause ?? result.error) }, 'internal error');
  if (err.code === 'service_unavailable') ctx.deps.log.warn({ requestId: ctx.requestId, path, ...describeFailure(result.error.cause ?? result.error) }, 'dependency unavailable');
  if (err.retryAfterSeconds !== undefined) ctx.res.headers['Retry-After'] = String(err.retryAfterSeconds);
  throw toTRPCError(err);
}

/** Outermost middleware of the console's procedures (the API's own entry step maps errors itself). */
export const mapErrors = t.middleware(async ({ ctx, path, next, getRawInput }) => mapFailure(ctx, path, getRawInput, await next()));
