import { InvalidScopeError } from '@modelcontextprotocol/sdk/server/auth/errors.js';

/**
 * The scopes this authorization server grants. Every tool only reads (stays, prices, reviews and
 * the caller's own jobs), so one scope covers them; it is advertised in both metadata documents
 * and in the 401 challenge, and `/mcp` refuses a token without it.
 */
export const SCOPES = ['stays:read'] as const;

/** The scopes to grant for a request: none asked means all; an unknown one is refused by name. */
export function grantScopes(requested: readonly string[] | undefined): string[] {
  const asked = (requested ?? []).filter((s) => s.length > 0);
  const unknown = asked.filter((s) => !(SCOPES as readonly string[]).includes(s));
  if (unknown.length > 0) throw new InvalidScopeError(`Unknown scope ${JSON.stringify(unknown[0]!.slice(0, 40))}; this server grants ${SCOPES.join(' ')}.`);
  return asked.length > 0 ? [...new Set(asked)] : [...SCOPES];
}
