import { createHash } from 'node:crypto';
import type { ConsoleSession, ConsoleStore } from '../../adapters/postgres/console/console-store.js';
import type { Deps } from '../../deps.js';
import { ServiceError } from '../../domain/errors.js';
import { mapErrors } from '../middleware/errors.js';
import { t } from '../trpc.js';
import { refuseControlCharacters } from '../control-characters.js';
import { consoleAccountBucket, consoleSessionBucket } from '../../domain/accounts/rate-buckets.js';

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
 * Console reads are the heaviest queries of the service (a ledger of 100,000 rows): each session
 * and each account gets a bucket of its own (CONSOLE_PER_SESSION_PER_MINUTE,
 * CONSOLE_PER_ACCOUNT_PER_MINUTE), so one tab in a loop or many sessions of one account cannot
 * slow the billed path of others; the queries also run on a small pool of their own (deps.ts).
 */
async function consoleRateLimit(deps: Deps, session: ConsoleSession): Promise<void> {
  const { perSession, perAccount } = deps.config.consoleLimits;
  const sessionId = createHash('sha256').update(session.csrf).digest('base64url').slice(0, 22);
  for (const [bucket, capacity] of [[consoleSessionBucket(session.accountId, sessionId), perSession], [consoleAccountBucket(session.accountId), perAccount]] as const) {
    const decision = await deps.limiter.take(bucket, capacity);
    if (!decision.allowed) {
      const retryAfterSeconds = Math.max(1, Math.ceil(decision.retryAfterMs / 1000));
      throw new ServiceError('rate_limit_exceeded', `Too many console requests; retry in ${retryAfterSeconds} s.`, { retryAfterSeconds });
    }
  }
}

/**
 * Every console procedure: a browser session, never an API key. Called from any other face it
 * answers "not found", as for a procedure that does not exist, so nothing about it leaks there.
 * The session also needs its CSRF token in a header: the SameSite=Strict cookie already stays home
 * on cross-site requests, and the header is a second lock that a form on another site cannot forge.
 */
export const sessionProcedure = t.procedure.use(mapErrors).use(async ({ ctx, path, next, getRawInput }) => {
  const call = ctx.console;
  if (!call) throw new ServiceError('not_found', `No procedure ${JSON.stringify(path)} here.`);
  const session = call.session;
  if (!session) throw new ServiceError('unauthenticated', 'Sign in to the console first.');
  if (call.csrfHeader !== session.csrf) throw new ServiceError('permission_denied', 'The X-CSRF-Token header is missing or does not match this session. Reload the console.', { param: 'X-CSRF-Token' });
  refuseControlCharacters(await getRawInput());
  await consoleRateLimit(ctx.deps, session);
  return next({ ctx: { session, store: call.store } });
});
