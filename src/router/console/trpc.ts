import { initTRPC } from '@trpc/server';
import type { Deps } from '../../deps.js';
import { errorBody, ServiceError } from '../../domain/errors.js';
import type { ConsoleSession, ConsoleStore } from '../../adapters/postgres/console-store.js';
import { toServiceError, toTRPCError } from '../errors.js';
import { describeFailure } from '../dependency-errors.js';

/**
 * The console's own tRPC instance: its context is a browser session (cookie), never an API key,
 * so it cannot share the API pipeline's context type. Errors carry the same `apiError` body.
 */
export interface ConsoleContext {
  deps: Deps;
  store: ConsoleStore;
  requestId: string;
  /** The session named by the cookie, or null when there is none (or it expired). */
  session: ConsoleSession | null;
  clientAddress: string;
  /** The X-CSRF-Token header as sent. */
  csrfHeader: string | null;
}

export const ct = initTRPC.context<ConsoleContext>().create({
  isDev: false,
  errorFormatter({ shape, error, ctx }) {
    const apiError = errorBody(toServiceError(error), ctx?.requestId ?? 'req_unknown', ctx?.deps.config.publicUrl ?? '');
    return { ...shape, data: { ...shape.data, stack: undefined, apiError } };
  },
});

/** Every failure leaves as a TRPCError whose cause is a ServiceError (same table as the API). */
const mapConsoleErrors = ct.middleware(async ({ ctx, path, next, getRawInput }) => {
  const result = await next();
  if (result.ok) return result;
  const err = toServiceError(result.error, await getRawInput().catch(() => undefined));
  if (err.code === 'internal_error') ctx.deps.log.error({ requestId: ctx.requestId, path, ...describeFailure(result.error.cause ?? result.error) }, 'internal error');
  throw toTRPCError(err);
});

/**
 * Every console call needs a live session and its CSRF token in a header: the SameSite=Strict
 * cookie already stays home on cross-site requests, and the header is a second lock that a form
 * or an <img> on another site cannot forge.
 */
export const sessionProcedure = ct.procedure.use(mapConsoleErrors).use(({ ctx, next }) => {
  const session = ctx.session;
  if (!session) throw new ServiceError('unauthenticated', 'Sign in to the console first.');
  if (ctx.csrfHeader !== session.csrf) throw new ServiceError('permission_denied', 'The X-CSRF-Token header is missing or does not match this session. Reload the console.', { param: 'X-CSRF-Token' });
  return next({ ctx: { ...ctx, session } });
});
