import { createHash } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { fakePlatforms } from '../support/fake-platforms.js';
import { MemoryOAuthClient, openSignIn, submitSignIn } from '../support/oauth-client.js';

/** The whole OAuth 2.1 flow as an MCP client runs it, then tool calls on the signed-in account. */
let app: TestApp;
const PASSWORD = 'correct horse battery staple';
beforeAll(async () => {
  app = await startTestApp({ platforms: { live: fakePlatforms().adapters } });
});
afterAll(() => app.close());

async function signedIn(email: string): Promise<{ oauth: MemoryOAuthClient; accountId: string }> {
  const { accountId } = await app.deps.admin.createAccount({ email, plan: 'pro', credits: 100, verified: true, password: PASSWORD });
  const oauth = new MemoryOAuthClient();
  const client = new Client({ name: 'agent', version: '1' });
  const first = new StreamableHTTPClientTransport(new URL(`${app.baseUrl}/mcp`), { authProvider: oauth });
  await expect(client.connect(first)).rejects.toBeInstanceOf(UnauthorizedError); // discovery + registration + PKCE
  const page = await openSignIn(oauth.authorizationUrl!);
  const res = await submitSignIn(app.baseUrl, page, { email, password: PASSWORD, consent: 'yes', decision: 'allow' });
  expect(res.status).toBe(302);
  const back = new URL(res.headers.get('location')!);
  expect(back.origin + back.pathname).toBe(oauth.redirectUrl);
  expect(back.searchParams.get('state')).toBe(oauth.authorizationUrl!.searchParams.get('state'));
  // RFC 9207: the authorization response names its issuer, exactly as the metadata does.
  expect(back.searchParams.get('iss')).toBe(`${app.baseUrl}/`);
  await first.finishAuth(back.searchParams.get('code')!);
  return { oauth, accountId };
}

describe('OAuth 2.1 sign-in for the MCP tool server', () => {
  it('publishes authorization-server and protected-resource metadata (S256 only)', async () => {
    const as = await (await app.get('/.well-known/oauth-authorization-server')).json();
    expect(as).toMatchObject({ issuer: `${app.baseUrl}/`, code_challenge_methods_supported: ['S256'], registration_endpoint: `${app.baseUrl}/register` });
    // RFC 9207 (asked for by MCP 2026-07-28); Client ID Metadata Documents stay preferred, registration stays open.
    expect(as).toMatchObject({ authorization_response_iss_parameter_supported: true, client_id_metadata_document_supported: true });
    const pr = await (await app.get('/.well-known/oauth-protected-resource/mcp')).json();
    expect(pr.resource).toBe(`${app.baseUrl}/mcp`);
  });

  it('runs discovery, registration, PKCE, sign-in and code exchange, then calls a tool billed to the account', async () => {
    const { oauth, accountId } = await signedIn('ana@example.com');
    const client = new Client({ name: 'agent', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${app.baseUrl}/mcp`), { authProvider: oauth }));
    const result = (await client.callTool({ name: 'get_price', arguments: { platform: 'airbnb', listingId: '40000012', checkIn: '2031-06-01', checkOut: '2031-06-03' } })) as unknown as { isError?: boolean; structuredContent: { meta: { creditsCharged: number } } };
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent.meta.creditsCharged).toBe(1);
    const [row] = await app.sql<{ b: string }[]>`select credit_balance::text as b from accounts where id = ${accountId}`;
    expect(row!.b).toBe('99');
    const token = oauth.tokens()!.access_token;
    const stored = await app.sql`select 1 from oauth_tokens where token_hash = ${createHash('sha256').update(token).digest('hex')}`;
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(await app.sql`select * from oauth_tokens`)).not.toContain(token);
    await client.close();
  });

  it('rotates refresh tokens: the new one works until the spent one is replayed, which revokes the family', async () => {
    const { oauth } = await signedIn('ben@example.com');
    const clientId = oauth.clientInformation()!.client_id;
    const refresh = (rt: string) =>
      fetch(`${app.baseUrl}/token`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: rt, client_id: clientId }).toString() });
    const list = (token: string) =>
      fetch(`${app.baseUrl}/mcp`, { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) });
    const first = await refresh(oauth.tokens()!.refresh_token!);
    expect(first.status).toBe(200);
    const fresh = (await first.json()) as { access_token: string; refresh_token: string };
    expect(fresh.refresh_token).not.toBe(oauth.tokens()!.refresh_token);
    expect((await list(fresh.access_token)).status).toBe(200);
    const second = (await (await refresh(fresh.refresh_token)).json()) as { access_token: string; refresh_token: string };
    expect((await list(second.access_token)).status).toBe(200);

    // RFC 9700 4.14: a spent refresh token presented again means a copy leaked; the family dies.
    const replay = await refresh(oauth.tokens()!.refresh_token!);
    expect(replay.status).toBe(400);
    expect(((await replay.json()) as { error: string }).error).toBe('invalid_grant');
    expect((await list(second.access_token)).status).toBe(401);
    expect((await refresh(second.refresh_token)).status).toBe(400);
  });

  it('refuses expired tokens, tokens for another audience and tokens in the query string', async () => {
    const { oauth } = await signedIn('cai@example.com');
    const token = oauth.tokens()!.access_token;
    const hash = createHash('sha256').update(token).digest('hex');
    const call = (auth: string | null, query = '') =>
      fetch(`${app.baseUrl}/mcp${query}`, { method: 'POST', headers: { ...(auth ? { Authorization: auth } : {}), 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) });
    expect((await call(`Bearer ${token}`)).status).toBe(200);
    const inQuery = await call(null, `?access_token=${token}`);
    expect(inQuery.status).toBe(400); // RFC 6750 3.1: invalid_request is a 400
    expect(inQuery.headers.get('www-authenticate')).toContain('error="invalid_request"');
    await app.sql`update oauth_tokens set resource = 'https://elsewhere.example/mcp' where token_hash = ${hash}`;
    expect((await call(`Bearer ${token}`)).status).toBe(401);
    await app.sql`update oauth_tokens set resource = ${`${app.baseUrl}/mcp`}, expires_at = now() - interval '1 second' where token_hash = ${hash}`;
    const expired = await call(`Bearer ${token}`);
    expect(expired.status).toBe(401);
    expect(expired.headers.get('www-authenticate')).toContain('error="invalid_token"');
  });

  it('refuses PKCE plain, unknown redirect URIs, a forged CSRF token and a wrong password', async () => {
    const reg = (await (await fetch(`${app.baseUrl}/register`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ redirect_uris: ['http://127.0.0.1:9/cb'], token_endpoint_auth_method: 'none', client_name: 'X' }) })).json()) as { client_id: string };
    const authorize = (params: Record<string, string>) =>
      fetch(`${app.baseUrl}/authorize?${new URLSearchParams({ response_type: 'code', client_id: reg.client_id, redirect_uri: 'http://127.0.0.1:9/cb', code_challenge: 'x'.repeat(43), code_challenge_method: 'S256', state: 's', ...params })}`, { redirect: 'manual' });
    const plain = await authorize({ code_challenge_method: 'plain' });
    expect(plain.status === 400 || new URL(plain.headers.get('location') ?? 'http://x/').searchParams.get('error') === 'invalid_request').toBe(true);
    // An error sent back to the client by the SDK's /authorize names the issuer too (RFC 9207 section 2).
    const shortChallenge = new URL((await authorize({ code_challenge: 'short' })).headers.get('location')!);
    expect(shortChallenge.searchParams.get('error')).toBe('invalid_request');
    expect(shortChallenge.searchParams.get('iss')).toBe(`${app.baseUrl}/`);
    expect((await authorize({ redirect_uri: 'http://127.0.0.1:9/other' })).status).toBe(400);

    await app.deps.admin.createAccount({ email: 'dee@example.com', plan: 'free', credits: 0, verified: true, password: PASSWORD });
    const ok = await authorize({});
    const page = await openSignIn(new URL(ok.url));
    const forged = await submitSignIn(app.baseUrl, { ...page, csrf: 'forged' }, { email: 'dee@example.com', password: PASSWORD, consent: 'yes' });
    expect(forged.status).toBe(403);
    const wrong = await submitSignIn(app.baseUrl, page, { email: 'dee@example.com', password: 'nope', consent: 'yes' });
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toContain('not right');
    const denied = new URL((await submitSignIn(app.baseUrl, page, { decision: 'deny' })).headers.get('location')!);
    expect([denied.searchParams.get('error'), denied.searchParams.get('iss')]).toEqual(['access_denied', `${app.baseUrl}/`]);
  });
});
