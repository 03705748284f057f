import { randomUUID } from 'node:crypto';
import type { Response } from 'express';
import { InvalidGrantError, InvalidRequestError, InvalidTargetError, InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { AuthorizationParams, OAuthServerProvider } from '@modelcontextprotocol/sdk/server/auth/provider.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { OAuthClientInformationFull, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { Clock } from '../../../domain/ports/system.js';
import { hashSecret, newSecret, type IssuedCode, type IssuedToken, type OAuthStore } from '../../../adapters/postgres/oauth/oauth-store.js';
import type { ClientMetadataFetcher } from '../../../adapters/system/client-metadata.js';
import { createClientsStore } from './clients.js';
import { renderSignIn, securePage } from './pages.js';
import { redirectTarget } from './redirect-uris.js';
import { grantScopes } from './scopes.js';

export const ACCESS_TOKEN_SECONDS = 15 * 60;
const REFRESH_TOKEN_SECONDS = 30 * 24 * 60 * 60;
const PENDING_SECONDS = 10 * 60;

/**
 * The authorization server behind the MCP tool server (spec 5.5): authorization code with PKCE
 * (S256 only, checked by the SDK), refresh tokens that rotate, redirect URIs checked at
 * registration and matched at /authorize and /token, codes and tokens stored hashed and bound to
 * the /mcp resource. Every token of one sign-in shares a family (the code's hash): a replayed
 * code or refresh token revokes the family (RFC 9700 section 4.14).
 */
export function createOAuthProvider(store: OAuthStore, clock: Clock, mcpResource: string, clientMetadata: ClientMetadataFetcher): OAuthServerProvider {
  const now = () => clock.now();
  const seconds = (s: number) => new Date(now().getTime() + s * 1000);

  const clientsStore = createClientsStore(store, clientMetadata);

  /** What a token is issued for: the stored token without its kind and expiry. */
  type Grant = Omit<IssuedToken, 'kind' | 'expiresAt'>;

  async function issue(grant: Grant): Promise<OAuthTokens> {
    const access = newSecret('mcp_at_');
    const refresh = newSecret('mcp_rt_');
    const { scopes } = grant;
    await store.saveToken(access.hash, { kind: 'access', ...grant, expiresAt: seconds(ACCESS_TOKEN_SECONDS) });
    await store.saveToken(refresh.hash, { kind: 'refresh', ...grant, expiresAt: seconds(REFRESH_TOKEN_SECONDS) });
    return { access_token: access.value, token_type: 'Bearer', expires_in: ACCESS_TOKEN_SECONDS, refresh_token: refresh.value, scope: scopes.join(' ') };
  }

  /** Tokens are for this service's /mcp resource only (RFC 8707: another one is invalid_target). */
  function boundResource(resource: URL | string | null | undefined): string {
    const r = resource ? String(resource) : mcpResource;
    if (r !== mcpResource) throw new InvalidTargetError(`resource: tokens can only be issued for ${mcpResource}`);
    return r;
  }

  /** An unspent code of this client; a spent one is a replay and revokes what it issued. */
  async function liveCode(clientId: string, code: string): Promise<IssuedCode> {
    const hash = hashSecret(code);
    const found = await store.findCode(hash, now());
    if (found && found.clientId === clientId) return found;
    if (await store.wasUsed(hash)) {
      await store.revokeFamily(hash, now());
      throw new InvalidGrantError('Authorization code already used; the tokens issued from it are revoked');
    }
    throw new InvalidGrantError('Unknown or expired authorization code');
  }

  return {
    clientsStore,

    async authorize(client: OAuthClientInformationFull, params: AuthorizationParams, res: Response) {
      // RFC 7636 4.1 verifier alphabet and length; a state is echoed back, so it must be plain text.
      if (!/^[A-Za-z0-9._~-]{43,128}$/.test(params.codeChallenge)) throw new InvalidRequestError('code_challenge must be 43 to 128 characters of A-Z a-z 0-9 - . _ ~');
      if (params.state !== undefined && (params.state.length > 1024 || /[\u0000-\u001f\u007f]/.test(params.state))) throw new InvalidRequestError('state must be at most 1024 characters, without control characters');
      const resource = boundResource(params.resource);
      const csrf = newSecret('');
      const id = randomUUID();
      await store.savePending({
        id,
        clientId: client.client_id,
        redirectUri: params.redirectUri,
        state: params.state ?? null,
        codeChallenge: params.codeChallenge,
        scopes: grantScopes(params.scopes),
        resource,
        csrfHash: csrf.hash,
        expiresAt: seconds(PENDING_SECONDS),
      });
      res.cookie('ads_csrf', csrf.value, { httpOnly: true, sameSite: 'strict', path: '/oauth', maxAge: PENDING_SECONDS * 1000 });
      securePage(res, params.redirectUri);
      res.type('html').send(renderSignIn({ requestId: id, csrf: csrf.value, clientId: client.client_id, clientName: client.client_name ?? client.client_id, redirectHost: redirectTarget(params.redirectUri), askConsent: true }));
    },

    async challengeForAuthorizationCode(client, code) {
      return (await liveCode(client.client_id, code)).codeChallenge;
    },

    async exchangeAuthorizationCode(client, code, _verifier, redirectUri, resource) {
      const hash = hashSecret(code);
      const found = await liveCode(client.client_id, code);
      if (redirectUri !== undefined && redirectUri !== found.redirectUri) throw new InvalidGrantError('redirect_uri does not match the authorization request');
      if (resource && String(resource) !== found.resource) throw new InvalidGrantError('resource does not match the authorization request');
      if (!(await store.useCode(hash, now()))) {
        await store.revokeFamily(hash, now());
        throw new InvalidGrantError('Authorization code already used; the tokens issued from it are revoked');
      }
      const { accountId, scopes, resource: bound, keyEnv } = found;
      return issue({ clientId: client.client_id, accountId, scopes, resource: bound, keyEnv, familyId: hash });
    },

    async exchangeRefreshToken(client, refreshToken, scopes, resource) {
      const hash = hashSecret(refreshToken);
      const found = await store.findToken(hash, 'refresh', now());
      if (!found) {
        // A spent refresh token presented again: someone holds a copy. Revoke the whole family.
        const spent = await store.findSpentRefresh(hash);
        if (spent?.familyId) await store.revokeFamily(spent.familyId, now());
        throw new InvalidGrantError('Unknown, expired or already used refresh token');
      }
      if (found.clientId !== client.client_id) throw new InvalidGrantError('Unknown, expired or already used refresh token');
      const bound = boundResource(resource ?? found.resource);
      if (scopes?.some((s) => !found.scopes.includes(s))) throw new InvalidGrantError('A refresh cannot widen the scopes');
      // Rotation: the presented refresh token is spent; a concurrent second use loses here.
      if (!(await store.revokeToken(hash, now()))) {
        if (found.familyId) await store.revokeFamily(found.familyId, now());
        throw new InvalidGrantError('Refresh token already used');
      }
      const { accountId, keyEnv, familyId } = found;
      return issue({ clientId: client.client_id, accountId, scopes: scopes?.length ? scopes : found.scopes, resource: bound, keyEnv, familyId });
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
        extra: { accountId: found.accountId, keyEnv: found.keyEnv },
      };
    },

    async revokeToken(client, request) {
      const hash = hashSecret(request.token);
      const found = (await store.findToken(hash, 'access', now())) ?? (await store.findToken(hash, 'refresh', now()));
      if (!found || found.clientId !== client.client_id) return;
      await store.revokeToken(hash, now());
      // RFC 7009 2.1: revoking a refresh token ends the grant, with the access tokens it issued.
      if (found.kind === 'refresh' && found.familyId) await store.revokeFamily(found.familyId, now());
    },
  };
}
