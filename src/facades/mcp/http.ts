import type { IncomingMessage, ServerResponse } from 'node:http';
import type { OAuthServerProvider } from '@modelcontextprotocol/sdk/server/auth/provider.js';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import type { Deps } from '../../deps.js';
import { hashKey, isWellFormedKey } from '../../domain/accounts/api-keys.js';
import { ServiceError, errorBody } from '../../domain/errors.js';
import type { Principal } from '../../domain/ports/accounts.js';
import { bearerToken } from '../../router/middleware/auth.js';
import { readJsonBody } from '../rest/request.js';
import { SCOPES } from './oauth/scopes.js';
import { TRANSPORT_REFUSAL, bodyRefusal } from './body-refusal.js';
import { batchRefusal } from './batches.js';
import { hostAllowed, originAllowed } from './guards.js';
import { createMcpHandler, type LegacyMcpOptions } from './server.js';
import { createModernMcp } from './modern.js';
import { isModernRequest } from './era.js';
import { toolDefinitions, type ToolDefinition } from './definitions.js';
import { clientAddress } from '../client-address.js';

/**
 * `/mcp`: authenticates at the HTTP layer, then hands the request to the stateless MCP server.
 * An OAuth access token (bound to this /mcp resource, unexpired, with the `stays:read` scope) or
 * an API key (for headless agents) is accepted as bearer; a token in the query string is refused
 * (400, RFC 6750 section 3.1). A 401 names the protected-resource metadata (RFC 9728) and the
 * scope so clients can discover the authorization server. Stateless: only POST is served; GET
 * (a standalone SSE stream that would never carry a message) and DELETE answer 405, in both eras
 * (the 2026-07-28 revision has no GET stream and no sessions).
 */
export function createMcpHttp(deps: Deps, provider: OAuthServerProvider, definitions: readonly ToolDefinition[] = toolDefinitions(deps), options: LegacyMcpOptions = {}) {
  const mcpUrl = `${deps.config.publicUrl}/mcp`;
  const resourceMetadata = `${deps.config.publicUrl}/.well-known/oauth-protected-resource/mcp`;
  const handle = createMcpHandler(deps, definitions, options);
  const modern = createModernMcp(deps, definitions);

  function refuse(res: ServerResponse, status: 400 | 401 | 403, error: 'invalid_request' | 'invalid_token' | 'insufficient_scope' | null, description: string): void {
    const requestId = deps.ids.requestId();
    const challenge = [`Bearer resource_metadata="${resourceMetadata}"`, `scope="${SCOPES.join(' ')}"`, ...(error ? [`error="${error}"`, `error_description="${description}"`] : [])].join(', ');
    const code = status === 400 ? 'invalid_request' : status === 403 ? 'permission_denied' : 'unauthenticated';
    res.statusCode = status;
    res.setHeader('WWW-Authenticate', challenge);
    res.setHeader('Content-Type', 'application/json');
    res.setHeader('X-Request-Id', requestId);
    res.end(JSON.stringify(errorBody(new ServiceError(code, description, status === 400 ? { param: 'access_token' } : {}), requestId, deps.config.publicUrl)));
  }

  function rpcError(res: ServerResponse, status: number, id: string | number | null, code: number, message: string, headers: Record<string, string> = {}): void {
    res.statusCode = status;
    for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
    res.setHeader('Content-Type', 'application/json');
    res.end(JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } }));
  }

  /** The principal, or the scope it lacks (an OAuth token granted without `stays:read`). */
  async function principalOf(token: string): Promise<Principal | 'insufficient_scope' | null> {
    if (isWellFormedKey(token)) return deps.keys.findByHash(hashKey(token));
    try {
      const info = await provider.verifyAccessToken(token);
      if (info.resource?.href !== new URL(mcpUrl).href) return null; // issued for another audience
      if (!info.expiresAt || info.expiresAt * 1000 <= deps.clock.now().getTime()) return null;
      if (!SCOPES.every((s) => info.scopes.includes(s))) return 'insufficient_scope';
      const env = info.extra?.keyEnv === 'sandbox' ? 'sandbox' : 'live';
      return deps.keys.forAccount(String(info.extra?.accountId), `oauth:${info.clientId}`, env);
    } catch {
      return null;
    }
  }

  return async function mcpHttp(req: IncomingMessage, res: ServerResponse, search: string): Promise<void> {
    const { publicUrl, mcpAllowedOrigins, host } = deps.config;
    if (!originAllowed(req.headers.origin, publicUrl, mcpAllowedOrigins)) {
      return rpcError(res, 403, null, TRANSPORT_REFUSAL, 'Forbidden: this Origin may not call /mcp (set MCP_ALLOWED_ORIGINS to allow it).');
    }
    if (!hostAllowed(req.headers.host, host, publicUrl, mcpAllowedOrigins)) {
      return rpcError(res, 403, null, TRANSPORT_REFUSAL, 'Forbidden: this Host is not served (set PUBLIC_URL to the name clients use).');
    }
    if (req.method !== 'POST') {
      return rpcError(res, 405, null, TRANSPORT_REFUSAL, 'Method not allowed: this stateless server answers POST only (no SSE stream, no session to delete).', { Allow: 'POST' });
    }
    if (new URLSearchParams(search).has('access_token')) return refuse(res, 400, 'invalid_request', 'Send the token in the Authorization header, never in the URL.');
    const token = bearerToken(req.headers.authorization ?? null);
    if (!token) return refuse(res, 401, null, 'Authorization required: sign in through OAuth or send an API key as bearer.');
    const principal = await principalOf(token);
    if (principal === 'insufficient_scope') return refuse(res, 403, 'insufficient_scope', `The token lacks the scope ${SCOPES.join(' ')}.`);
    if (!principal) return refuse(res, 401, 'invalid_token', 'The token is invalid, expired, revoked or for another resource.');
    let body: unknown;
    try {
      body = await readJsonBody(req);
    } catch (err) {
      const refusal = bodyRefusal(err);
      return rpcError(res, refusal.status, null, refusal.code, refusal.message);
    }
    // One endpoint, two eras: a request with the 2026-07-28 envelope is served statelessly by the
    // SDK 2.x; everything else (initialize and what follows it) by the legacy server, as before.
    if (isModernRequest(req.headers['mcp-protocol-version'], body)) return modern.handle(req, res, { principal, clientAddress: clientAddress(deps.config, req) }, body);
    // A legacy batch is served only under the revision that has batches (batches.ts).
    if (Array.isArray(body)) {
      const refused = batchRefusal(req.headers['mcp-protocol-version'], body);
      if (refused) return rpcError(res, 400, null, ErrorCode.InvalidRequest, refused);
    }
    await handle(req, res, principal, body);
  };
}
