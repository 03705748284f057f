import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';

/** What an MCP client keeps between steps of the OAuth flow, in memory; the authorization URL is recorded, not opened. */
export class MemoryOAuthClient implements OAuthClientProvider {
  authorizationUrl: URL | null = null;
  private info: OAuthClientInformationMixed | undefined;
  private saved: OAuthTokens | undefined;
  private verifier = '';
  constructor(readonly redirectUrl = 'http://127.0.0.1:9/callback') {}

  get clientMetadata(): OAuthClientMetadata {
    return { client_name: 'Test Agent', redirect_uris: [this.redirectUrl], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' };
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(v: string) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier;
  }
}

/** The hidden fields and CSRF cookie of the sign-in page an authorization URL answers with. */
export async function openSignIn(url: URL): Promise<{ requestId: string; csrf: string; cookie: string; html: string }> {
  const res = await fetch(url, { redirect: 'manual' });
  if (res.status !== 200) throw new Error(`authorize answered ${res.status}: ${await res.text()}`);
  const html = await res.text();
  const field = (name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(html)?.[1] ?? '';
  const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0]!;
  return { requestId: field('request_id'), csrf: field('csrf'), cookie, html };
}

export async function submitSignIn(baseUrl: string, page: { requestId: string; csrf: string; cookie: string }, fields: Record<string, string>): Promise<Response> {
  return fetch(`${baseUrl}/oauth/sign-in`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: page.cookie },
    body: new URLSearchParams({ request_id: page.requestId, csrf: page.csrf, ...fields }).toString(),
  });
}
