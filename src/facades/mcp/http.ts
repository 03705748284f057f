import type { IncomingMessage, ServerResponse } from 'node:http';
import type { OAuthServerProvider } from '@modelcontextprotocol/sdk/server/auth/provider.js';
import type { Deps } from '../../deps.js';
import { hashKey, isWellFormedKey } from '../../domain/api-keys.js';
import { ServiceError, errorBody } from '../../domain/errors.js';
import type { Principal } from '../../domain/service-ports.js';
import { bearerToken } from '../../router/middleware/auth.js';
import { readJsonBody } from '../rest/request.js';
import { createMcpHandler } from './server.js';

/**
 * `/mcp`: authenticates at the HTTP layer, then hands the request to the stateless MCP server.
 * An OAuth access token (bound to this /mcp resource, unexpired) or an API key (for headless
 * agents) is accepted as bearer; a token in the query string is refused. A 401 names the
 * protected-resource metadata (RFC 9728) so clients can discover the authorization server.
 */
export function createMcpHttp(deps: Deps, provider: OAuthServerProvider) {
  const mcpUrl = `${deps.config.publicUrl}/mcp`;
  const resourceMetadata = `${deps.config.publicUrl}/.well-known/oauth-protected-resource/mcp`;
  const handle = createMcpHandler(deps);

  function refuse(res: ServerResponse, error: 'invalid_request' | 'invalid_token' | null, description: string): void {
    const requestId = deps.ids.requestId();
    const challenge = [`Bearer resource_metadata="${resourceMetadata}"`, ...(error ? [`error="${error}"`, `error_description="${description}"`] : [])].join(', ');
    res.statusCode = 401;
    res.setHeader('WWW-Authenticate', challenge);
    res.setHeader('Content-Type', 'application/json');
    res.setHeader('X-Request-Id', requestId);
    res.end(JSON.stringify(errorBody(new ServiceError('unauthenticated', description), requestId, deps.config.publicUrl)));
  }

  async function principalOf(token: string): Promise<Principal | null> {
    if (isWellFormedKey(token)) return deps.keys.findByHash(hashKey(token));
    try {
      const info = await provider.verifyAccessToken(token);
      if (info.resource?.href !== new URL(mcpUrl).href) return null; // issued for another audience
      if (!info.expiresAt || info.expiresAt * 1000 <= deps.clock.now().getTime()) return null;
      return deps.keys.forAccount(String(info.extra?.accountId), `oauth:${info.clientId}`);
    } catch {
      return null;
    }
  }

  return async function mcpHttp(req: IncomingMessage, res: ServerResponse, search: string): Promise<void> {
    if (new URLSearchParams(search).has('access_token')) return refuse(res, 'invalid_request', 'Send the token in the Authorization header, never in the URL.');
    const token = bearerToken(req.headers.authorization ?? null);
    if (!token) return refuse(res, null, 'Authorization required: sign in through OAuth or send an API key as bearer.');
    const principal = await principalOf(token);
    if (!principal) return refuse(res, 'invalid_token', 'The token is invalid, expired, revoked or for another resource.');
    if (req.method === 'GET') {
      // Stateless: nothing is ever pushed between calls, so no standing SSE stream is offered
      // (the transport spec's 405 for GET); an idle stream per GET would only hold a socket.
      res.statusCode = 405;
      res.setHeader('Allow', 'POST');
      res.setHeader('Content-Type', 'application/json');
      return void res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32000, message: 'This server offers no SSE stream; send JSON-RPC messages with POST.' } }));
    }
    let body: unknown;
    if (req.method === 'POST') {
      try {
        body = await readJsonBody(req);
      } catch (err) {
        const failure = err instanceof ServiceError ? err : new ServiceError('invalid_request', 'The body is not valid JSON.');
        res.statusCode = failure.status;
        res.setHeader('Content-Type', 'application/json');
        return void res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: failure.message } }));
      }
    }
    await handle(req, res, principal, body);
  };
}
