import { hashKey, isWellFormedKey } from '../../domain/accounts/api-keys.js';
import { addressBucket } from '../../domain/accounts/rate-buckets.js';
import { unauthenticated } from '../../domain/errors.js';
import type { Principal } from '../../domain/ports/accounts.js';
import type { Context } from '../context.js';
import { enforceRateLimit } from './rate-limit.js';

/** The bearer token of an Authorization header, or null. */
export function bearerToken(header: string | null): string | null {
  const m = header ? /^Bearer[ ]+(\S+)\s*$/i.exec(header) : null;
  return m ? m[1]! : null;
}

/**
 * spec section 5: a bearer API key. Missing, malformed, unknown and revoked keys get the same
 * 401; the failed attempt still counts against the caller's address bucket. Returns the caller.
 */
export async function authenticate(ctx: Context): Promise<Principal> {
  // The job worker runs a call for the principal authenticated when the job was accepted; the MCP
  // face authenticates at the HTTP layer (API key or OAuth token) before any tool runs; the
  // console by its session cookie.
  if ((ctx.transport === 'worker' || ctx.transport === 'mcp' || ctx.transport === 'console') && ctx.principal) return ctx.principal;
  const token = bearerToken(ctx.authorization);
  const principal = token && isWellFormedKey(token) ? await ctx.deps.keys.findByHash(hashKey(token)) : null;
  if (!principal) {
    await enforceRateLimit(ctx, addressBucket(ctx.clientAddress), ctx.deps.config.anonymousPerMinute, 'address');
    // RFC 6750 section 3: every 401 names the scheme, as the MCP face does. One value for every
    // failed key, so the header tells nothing the body does not.
    ctx.res.headers['WWW-Authenticate'] = 'Bearer realm="api"';
    throw unauthenticated();
  }
  ctx.res.keyPrefix = principal.keyPrefix;
  ctx.deps.keyUse.touch(principal.keyId);
  return principal;
}
