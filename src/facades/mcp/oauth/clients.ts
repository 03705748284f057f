import type { OAuthRegisteredClientsStore } from '@modelcontextprotocol/sdk/server/auth/clients.js';
import { InvalidClientError, InvalidClientMetadataError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { OAuthClientInformationFull } from '@modelcontextprotocol/sdk/shared/auth.js';
import { hashSecret, type OAuthStore } from '../../../adapters/postgres/oauth/oauth-store.js';
import { ClientMetadataError, isUrlClientId, type ClientMetadataFetcher } from '../../../adapters/system/client-metadata.js';
import { redirectUriProblem } from './redirect-uris.js';

/** A registration the service will store: redirect URIs we may send users to, no NUL anywhere. */
function checkRegistration(client: OAuthClientInformationFull): void {
  if (JSON.stringify(client).includes('\\u0000')) throw new InvalidClientMetadataError('Client metadata must not contain NUL characters');
  if (client.redirect_uris.length === 0) throw new InvalidClientMetadataError('redirect_uris must list at least one URI');
  for (const uri of client.redirect_uris) {
    const problem = redirectUriProblem(String(uri));
    if (problem) throw new InvalidClientMetadataError(`redirect_uris: ${JSON.stringify(String(uri).slice(0, 100))} ${problem}`);
  }
}

/**
 * A client described by its Client ID Metadata Document: the document must name itself as the
 * client_id, list acceptable redirect URIs, and describe a public client (no secret; PKCE protects it).
 */
async function documentedClient(fetcher: ClientMetadataFetcher, clientId: string): Promise<OAuthClientInformationFull> {
  let doc: Record<string, unknown>;
  try {
    doc = await fetcher.get(clientId);
  } catch (err) {
    throw new InvalidClientError(`client_id metadata document: ${err instanceof ClientMetadataError ? err.message : 'could not be fetched'}`);
  }
  const fail = (why: string) => new InvalidClientError(`client_id metadata document: ${why}`);
  if (doc.client_id !== clientId) throw fail('its client_id must be the URL it is served at');
  if ('client_secret' in doc || (doc.token_endpoint_auth_method !== undefined && doc.token_endpoint_auth_method !== 'none')) throw fail('must describe a public client (token_endpoint_auth_method none, no secret)');
  const uris = doc.redirect_uris;
  if (!Array.isArray(uris) || uris.length === 0 || uris.some((u) => typeof u !== 'string' || redirectUriProblem(u) !== null)) throw fail('redirect_uris must list https, loopback or reverse-domain URIs');
  const name = typeof doc.client_name === 'string' ? doc.client_name.slice(0, 100) : undefined;
  return { client_id: clientId, redirect_uris: uris as string[], token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], ...(name ? { client_name: name } : {}) };
}

/**
 * The clients the authorization server knows: registered ones (RFC 7591, stored with their
 * secret hashed) and URL client ids described by their metadata documents.
 */
export function createClientsStore(store: OAuthStore, clientMetadata: ClientMetadataFetcher): OAuthRegisteredClientsStore {
  return {
    async getClient(clientId) {
      if (isUrlClientId(clientId)) return documentedClient(clientMetadata, clientId);
      const found = await store.getClient(clientId);
      // The secret is checked against its hash before the SDK sees the request (see app.ts).
      return found ? ({ ...found.metadata, client_secret: undefined } as OAuthClientInformationFull) : undefined;
    },
    async registerClient(client) {
      checkRegistration(client as OAuthClientInformationFull);
      const { client_secret, ...metadata } = client as OAuthClientInformationFull;
      await store.saveClient(metadata.client_id, metadata, client_secret ? hashSecret(client_secret) : null);
      return client as OAuthClientInformationFull;
    },
  };
}
