import { randomUUID } from 'node:crypto';
import type { Response } from 'express';
import type { OAuthRegisteredClientsStore } from '@modelcontextprotocol/sdk/server/auth/clients.js';
import { InvalidGrantError, InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { AuthorizationParams, OAuthServerProvider } from '@modelcontextprotocol/sdk/server/auth/provider.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { OAuthClientInformationFull, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { Clock } from '../../../domain/ports.js';
import { hashSecret, newSecret, type OAuthStore } from '../../../adapters/postgres/oauth-store.js';
import { renderSignIn } from './pages.js';

export const ACCESS_TOKEN_SECONDS = 15 * 60;
const REFRESH_TOKEN_SECONDS = 30 * 24 * 60 * 60;
const PENDING_SECONDS = 10 * 60;
export const SCOPES = ['stays:read'];

/**
 * The authorization server behind the MCP tool server (spec 5.5): authorization code with PKCE
 * (S256 only, checked by the SDK), refresh tokens that rotate, exact redirect URIs (checked by the
 * SDK against the registration), codes and tokens stored hashed and bound to the /mcp resource.
 */
export function createOAuthProvider(store: OAuthStore, clock: Clock, mcpResource: string): OAuthServerProvider {
  const now = () => clock.now();
  const seconds = (s: number) => new Date(now().getTime() + s * 1000);

  const clientsStore: OAuthRegisteredClientsStore = {
    async getClient(clientId) {
      const found = await store.getClient(clientId);
      // The secret is checked against its hash before the SDK sees the request (see app.ts).
      return found ? ({ ...found.metadata, client_secret: undefined } as OAuthClientInformationFull) : undefined;
    },
    async registerClient(client) {
      const { client_secret, ...metadata } = client as OAuthClientInformationFull;
      await store.saveClient(metadata.client_id, metadata, client_secret ? hashSecret(client_secret) : null);
      return client as OAuthClientInformationFull;
    },
  };

  async function issue(clientId: string, accountId: string, scopes: string[], resource: string | null): Promise<OAuthTokens> {
    const access = newSecret('mcp_at_');
    const refresh = newSecret('mcp_rt_');
    await store.saveToken(access.hash, { kind: 'access', clientId, accountId, scopes, resource, expiresAt: seconds(ACCESS_TOKEN_SECONDS) });
    await store.saveToken(refresh.hash, { kind: 'refresh', clientId, accountId, scopes, resource, expiresAt: seconds(REFRESH_TOKEN_SECONDS) });
    return { access_token: access.value, token_type: 'Bearer', expires_in: ACCESS_TOKEN_SECONDS, refresh_token: refresh.value, scope: scopes.join(' ') };
  }

  /** Tokens are for this service's /mcp resource only (RFC 8707). */
  function boundResource(resource: URL | string | null | undefined): string {
    const r = resource ? String(resource) : mcpResource;
    if (r !== mcpResource) throw new InvalidGrantError(`Tokens can only be issued for ${mcpResource}`);
    return r;
  }

  return {
    clientsStore,

    async authorize(client: OAuthClientInformationFull, params: AuthorizationParams, res: Response) {
      const resource = boundResource(params.resource);
      const csrf = newSecret('');
      const id = randomUUID();
      await store.savePending({
        id,
        clientId: client.client_id,
        redirectUri: params.redirectUri,
        state: params.state ?? null,
        codeChallenge: params.codeChallenge,
        scopes: params.scopes?.length ? params.scopes : SCOPES,
        resource,
        csrfHash: csrf.hash,
        expiresAt: seconds(PENDING_SECONDS),
      });
      res.cookie('ads_csrf', csrf.value, { httpOnly: true, sameSite: 'strict', path: '/oauth', maxAge: PENDING_SECONDS * 1000 });
      res.setHeader('Cache-Control', 'no-store');
      res.type('html').send(renderSignIn({ requestId: id, csrf: csrf.value, clientName: client.client_name ?? client.client_id, askConsent: true }));
    },

    async challengeForAuthorizationCode(client, code) {
      const found = await store.findCode(hashSecret(code), now());
      if (!found || found.clientId !== client.client_id) throw new InvalidGrantError('Unknown or expired authorization code');
      return found.codeChallenge;
    },

    async exchangeAuthorizationCode(client, code, _verifier, redirectUri, resource) {
      const hash = hashSecret(code);
      const found = await store.findCode(hash, now());
      if (!found || found.clientId !== client.client_id) throw new InvalidGrantError('Unknown or expired authorization code');
      if (redirectUri !== undefined && redirectUri !== found.redirectUri) throw new InvalidGrantError('redirect_uri does not match the authorization request');
      if (resource && String(resource) !== found.resource) throw new InvalidGrantError('resource does not match the authorization request');
      if (!(await store.useCode(hash, now()))) throw new InvalidGrantError('Authorization code already used');
      return issue(client.client_id, found.accountId, found.scopes, found.resource);
    },

    async exchangeRefreshToken(client, refreshToken, scopes, resource) {
      const hash = hashSecret(refreshToken);
      const found = await store.findToken(hash, 'refresh', now());
      if (!found || found.clientId !== client.client_id) throw new InvalidGrantError('Unknown, expired or already used refresh token');
      const bound = boundResource(resource ?? found.resource);
      if (scopes?.some((s) => !found.scopes.includes(s))) throw new InvalidGrantError('A refresh cannot widen the scopes');
      // Rotation: the presented refresh token is spent; a second use finds it revoked.
      if (!(await store.revokeToken(hash, now()))) throw new InvalidGrantError('Refresh token already used');
      return issue(client.client_id, found.accountId, scopes?.length ? scopes : found.scopes, bound);
    },

    async verifyAccessToken(token): Promise<AuthInfo> {
      const found = await store.findToken(hashSecret(token), 'access', now());
      if (!found) throw new InvalidTokenError('Invalid or expired access token');
      return {
        token,
        clientId: found.clientId,
        scopes: found.scopes,
        expiresAt: Math.floor(found.expiresAt.getTime() / 1000),
        ...(found.resource ? { resource: new URL(found.resource) } : {}),
        extra: { accountId: found.accountId },
      };
    },

    async revokeToken(client, request) {
      const hash = hashSecret(request.token);
      const found = (await store.findToken(hash, 'access', now())) ?? (await store.findToken(hash, 'refresh', now()));
      if (found && found.clientId === client.client_id) await store.revokeToken(hash, now());
    },
  };
}
