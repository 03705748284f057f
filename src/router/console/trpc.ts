import type { ConsoleSession, ConsoleStore } from '../../adapters/postgres/console/console-store.js';
import { ServiceError } from '../../domain/errors.js';
import { mapErrors } from '../middleware/errors.js';
import { t } from '../trpc.js';

/**
 * What the console face (/console/trpc) adds to a call's context: the session its cookie names
 * (null when there is none or it expired) and the X-CSRF-Token header as sent. No other face sets
 * it, so on /trpc, REST or MCP a console procedure finds nothing to run as.
 */
export interface ConsoleCall {
  store: ConsoleStore;
  session: ConsoleSession | null;
  csrfHeader: string | null;
}

/**
 * Every console procedure: a browser session, never an API key. Called from any other face it
 * answers "not found", as for a procedure that does not exist, so nothing about it leaks there.
 * The session also needs its CSRF token in a header: the SameSite=Strict cookie already stays home
 * on cross-site requests, and the header is a second lock that a form on another site cannot forge.
 */
export const sessionProcedure = t.procedure.use(mapErrors).use(({ ctx, path, next }) => {
  const call = ctx.console;
  if (!call) throw new ServiceError('not_found', `No procedure ${JSON.stringify(path)} here.`);
  const session = call.session;
  if (!session) throw new ServiceError('unauthenticated', 'Sign in to the console first.');
  if (call.csrfHeader !== session.csrf) throw new ServiceError('permission_denied', 'The X-CSRF-Token header is missing or does not match this session. Reload the console.', { param: 'X-CSRF-Token' });
  return next({ ctx: { session, store: call.store } });
});
