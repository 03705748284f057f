import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { fakePlatforms } from '../support/fake-platforms.js';
import { openSignIn, submitSignIn } from '../support/oauth-client.js';

/**
 * The authorization server against an attacker (issue 11, items 1 to 5, 9 and 12) over real HTTP
 * on real PostgreSQL: throttled sign-in, equal timing, token families, scopes, redirect URIs, the
 * key kind chosen at consent, and short errors.
 */
let app: TestApp;
const PASSWORD = 'correct horse battery staple';
const REDIRECT = 'http://127.0.0.1:9/cb';
let n = 0;
beforeAll(async () => {
  // The per-address bucket is widened: every request here comes from 127.0.0.1 (it has its own unit test).
  app = await startTestApp({ platforms: { live: fakePlatforms().adapters }, config: { signIn: { perAccount: 5, perAddress: 100_000 } } });
});
afterAll(() => app.close());

async function register(redirectUris = [REDIRECT], name = 'Agent'): Promise<Response> {
  return fetch(`${app.baseUrl}/register`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ redirect_uris: redirectUris, token_endpoint_auth_method: 'none', client_name: name }) });
}

interface Flow {
  clientId: string;
  verifier: string;
  authorize(params?: Record<string, string>): Promise<Response>;
}

async function newFlow(): Promise<Flow> {
  const { client_id: clientId } = (await (await register()).json()) as { client_id: string };
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  return {
    clientId,
    verifier,
    authorize: (params = {}) =>
      fetch(`${app.baseUrl}/authorize?${new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: 'S256', state: 'st', ...params })}`, { redirect: 'manual' }),
  };
}

async function account(credits = 0, password: string | null = PASSWORD): Promise<{ email: string; accountId: string }> {
  const email = `user${++n}-${randomBytes(3).toString('hex')}@example.com`;
  const { accountId } = await app.deps.admin.createAccount({ email, plan: 'pro', credits, verified: true, password });
  return { email, accountId };
}

function tokenRequest(fields: Record<string, string>): Promise<Response> {
  return fetch(`${app.baseUrl}/token`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });
}

/** Signs in through the page and exchanges the code; returns the tokens and the code. */
async function signIn(email: string, fields: Record<string, string> = {}): Promise<{ code: string; flow: Flow; tokens: { access_token: string; refresh_token: string; scope: string } }> {
  const flow = await newFlow();
  const page = await openSignIn(new URL((await flow.authorize()).url));
  const res = await submitSignIn(app.baseUrl, page, { email, password: PASSWORD, consent: 'yes', decision: 'allow', ...fields });
  expect(res.status, await res.clone().text()).toBe(302);
  const code = new URL(res.headers.get('location')!).searchParams.get('code')!;
  const tokens = await tokenRequest({ grant_type: 'authorization_code', code, code_verifier: flow.verifier, client_id: flow.clientId, redirect_uri: REDIRECT });
  expect(tokens.status).toBe(200);
  return { code, flow, tokens: (await tokens.json()) as { access_token: string; refresh_token: string; scope: string } };
}

function callTool(token: string, name: string, args: Record<string, unknown>): Promise<Response> {
  return fetch(`${app.baseUrl}/mcp`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

describe('sign-in', () => {
  it('item 1: 40 fast wrong passwords lock the e-mail; the right one then fails too, and the lock says nothing of the account', async () => {
    const { email } = await account();
    const flow = await newFlow();
    const page = await openSignIn(new URL((await flow.authorize()).url));
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) statuses.push((await submitSignIn(app.baseUrl, page, { email, password: `guess ${i}`, consent: 'yes' })).status);
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses.slice(5).every((s) => s === 429)).toBe(true);
    const right = await submitSignIn(app.baseUrl, page, { email, password: PASSWORD, consent: 'yes' });
    expect(right.status).toBe(429);
    const locked = await right.text();
    expect(locked).toMatch(/Too many sign-in attempts/);

    // An unknown e-mail, locked the same way, reads the same.
    const ghost = `ghost-${randomBytes(3).toString('hex')}@example.com`;
    const fresh = await openSignIn(new URL((await flow.authorize()).url));
    let last: Response | undefined;
    for (let i = 0; i < 6; i++) last = await submitSignIn(app.baseUrl, fresh, { email: ghost, password: 'x', consent: 'yes' });
    expect(last!.status).toBe(429);
    const strip = (html: string) => (/<p class="err" role="alert">([^<]*)</.exec(html)?.[1] ?? '').replace(/\d+ s/, 'N s');
    expect(strip(await last!.text())).toBe(strip(locked));
  });

  it('item 1: one pending request takes at most 5 password tries, whatever the e-mails', async () => {
    const flow = await newFlow();
    const page = await openSignIn(new URL((await flow.authorize()).url));
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await submitSignIn(app.baseUrl, page, { email: `spray${i}-${randomBytes(3).toString('hex')}@example.com`, password: 'x', consent: 'yes' })).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 400]);
  });

  it('item 2: existing, unknown and password-less accounts take the same time (ratio of medians)', async () => {
    const withPassword = await Promise.all([1, 2, 3].map(() => account()));
    const withoutPassword = await Promise.all([1, 2, 3].map(() => account(0, null)));
    const times: Record<'existing' | 'unknown' | 'noPassword', number[]> = { existing: [], unknown: [], noPassword: [] };
    for (let round = 0; round < 5; round++) {
      const page = await openSignIn(new URL((await (await newFlow()).authorize()).url));
      for (const i of [0, 1, 2]) {
        const cases: [keyof typeof times, string][] = [
          ['existing', withPassword[i]!.email],
          ['unknown', `nobody-${round}-${i}-${randomBytes(3).toString('hex')}@example.com`],
          ['noPassword', withoutPassword[i]!.email],
        ];
        for (const [kind, email] of cases) {
          const p = i === 0 && kind === 'existing' ? page : await openSignIn(new URL((await (await newFlow()).authorize()).url));
          const started = performance.now();
          const res = await submitSignIn(app.baseUrl, p, { email, password: 'wrong password', consent: 'yes' });
          times[kind].push(performance.now() - started);
          expect(res.status).toBe(401);
        }
      }
    }
    const medians = Object.values(times).map(median);
    // Before: 35.6 / 5.8 / 5.0 ms, a ratio of 7. One scrypt each now.
    expect(Math.max(...medians) / Math.min(...medians)).toBeLessThan(1.6);
  });
});

describe('tokens', () => {
  it('item 3: a replayed authorization code is refused and revokes the tokens issued from it', async () => {
    const { email } = await account();
    const { code, flow, tokens } = await signIn(email);
    expect((await callTool(tokens.access_token, 'get_job', { jobId: 'job_01ARZ3NDEKTSV4RRFFQ69G5FAV' })).status).toBe(200);
    const replay = await tokenRequest({ grant_type: 'authorization_code', code, code_verifier: flow.verifier, client_id: flow.clientId, redirect_uri: REDIRECT });
    expect(replay.status).toBe(400);
    expect(((await replay.json()) as { error: string }).error).toBe('invalid_grant');
    expect((await callTool(tokens.access_token, 'get_job', { jobId: 'job_01ARZ3NDEKTSV4RRFFQ69G5FAV' })).status).toBe(401);
    expect((await tokenRequest({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: flow.clientId })).status).toBe(400);
  });

  it('item 3: revoking a refresh token (RFC 7009) ends the grant, access tokens included', async () => {
    const { email } = await account();
    const { flow, tokens } = await signIn(email);
    const revoke = await fetch(`${app.baseUrl}/revoke`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ token: tokens.refresh_token, client_id: flow.clientId }).toString() });
    expect(revoke.status).toBe(200);
    expect((await callTool(tokens.access_token, 'get_job', { jobId: 'job_01ARZ3NDEKTSV4RRFFQ69G5FAV' })).status).toBe(401);
  });

  it('item 4: one real scope, advertised everywhere, unknown ones refused, checked on /mcp', async () => {
    const as = (await (await app.get('/.well-known/oauth-authorization-server')).json()) as { scopes_supported: string[] };
    const pr = (await (await app.get('/.well-known/oauth-protected-resource/mcp')).json()) as { scopes_supported: string[] };
    expect(as.scopes_supported).toEqual(['stays:read']);
    expect(pr.scopes_supported).toEqual(['stays:read']);
    const challenge = (await fetch(`${app.baseUrl}/mcp`, { method: 'POST', body: '{}' })).headers.get('www-authenticate');
    expect(challenge).toContain('scope="stays:read"');

    const flow = await newFlow();
    const admin = await flow.authorize({ scope: 'admin:write' });
    expect(admin.status).toBe(302);
    const back = new URL(admin.headers.get('location')!);
    expect(back.searchParams.get('error')).toBe('invalid_scope');
    expect(back.searchParams.get('error_description')).toContain('admin:write');

    const { email } = await account();
    const { tokens } = await signIn(email);
    expect(tokens.scope).toBe('stays:read');
    await app.sql`update oauth_tokens set scopes = '[]'::jsonb where token_hash = ${createHash('sha256').update(tokens.access_token).digest('hex')}`;
    const narrow = await callTool(tokens.access_token, 'get_job', { jobId: 'job_01ARZ3NDEKTSV4RRFFQ69G5FAV' });
    expect(narrow.status).toBe(403);
    expect(narrow.headers.get('www-authenticate')).toContain('error="insufficient_scope"');
  });

  it('item 5: registration takes https, loopback http and reverse-domain schemes; no other http, no fragments', async () => {
    for (const ok of [['https://agent.example.com/cb'], ['http://127.0.0.1:8080/cb', 'http://localhost/cb', 'http://[::1]:9/cb'], ['com.example.agent:/oauth']]) {
      expect((await register(ok)).status, ok.join()).toBe(201);
    }
    for (const bad of ['http://evil.example.com/cb', 'https://agent.example.com/cb#frag', 'javascript:alert(1)', 'myapp:/cb', 'https://user:pw@agent.example.com/cb']) {
      const res = await register([bad]);
      expect(res.status, bad).toBe(400);
      const body = (await res.json()) as { error: string; error_description: string };
      expect(body.error).toBe('invalid_client_metadata');
      expect(body.error_description).toMatch(/^redirect_uris/);
    }
  });

  it('item 5: the redirect URI must match at /authorize and /token', async () => {
    const flow = await newFlow();
    expect((await flow.authorize({ redirect_uri: 'http://127.0.0.1:9/elsewhere' })).status).toBe(400);
    expect((await flow.authorize({ redirect_uri: 'https://evil.example.com/cb' })).status).toBe(400);
    const { email } = await account();
    const page = await openSignIn(new URL((await flow.authorize()).url));
    expect(page.html).toContain('registered itself');
    expect(page.html).toContain('127.0.0.1:9');
    const res = await submitSignIn(app.baseUrl, page, { email, password: PASSWORD, consent: 'yes' });
    const code = new URL(res.headers.get('location')!).searchParams.get('code')!;
    const wrong = await tokenRequest({ grant_type: 'authorization_code', code, code_verifier: flow.verifier, client_id: flow.clientId, redirect_uri: 'http://127.0.0.1:9/elsewhere' });
    expect(wrong.status).toBe(400);
    expect(((await wrong.json()) as { error: string }).error).toBe('invalid_grant');
  });

  it('item 9: the consent step binds sandbox or live to the token (no credits: sandbox by default)', async () => {
    const args = { platform: 'airbnb', listingId: '40000012', checkIn: '2031-06-01', checkOut: '2031-06-03' };
    const charged = async (token: string) => {
      const body = (await (await callTool(token, 'get_price', args)).json()) as { result: { isError?: boolean; structuredContent?: { meta: { creditsCharged: number } }; content: { text: string }[] } };
      return body.result.isError ? JSON.parse(body.result.content[0]!.text).error.code : body.result.structuredContent!.meta.creditsCharged;
    };
    const poor = await account(0);
    expect(await charged((await signIn(poor.email)).tokens.access_token)).toBe(0); // auto -> sandbox
    expect(await charged((await signIn(poor.email, { env: 'live' })).tokens.access_token)).toBe('credit_balance_too_low');
    const rich = await account(50);
    expect(await charged((await signIn(rich.email)).tokens.access_token)).toBe(1); // auto -> live
    expect(await charged((await signIn(rich.email, { env: 'sandbox' })).tokens.access_token)).toBe(0);
    const [row] = await app.sql<{ b: string }[]>`select credit_balance::text as b from accounts where id = ${rich.accountId}`;
    expect(row!.b).toBe('49');
  });
});

describe('errors', () => {
  it('item 12: /authorize and /token describe a bad field in one short line, naming it', async () => {
    const flow = await newFlow();
    const res = await fetch(`${app.baseUrl}/authorize?${new URLSearchParams({ response_type: 'code', client_id: flow.clientId, redirect_uri: REDIRECT, state: 's' })}`, { redirect: 'manual' });
    const back = new URL(res.headers.get('location')!);
    expect(back.searchParams.get('error')).toBe('invalid_request');
    expect(back.searchParams.get('error_description')).toBe('code_challenge is required');
    // RFC 6749 4.1.2.1: the error redirect carries the request's state back, for every bad PKCE parameter.
    expect(back.searchParams.get('state')).toBe('s');
    for (const params of [{ code_challenge_method: 'plain' }, { code_challenge: 'short' }, { code_challenge_method: 'S512' }] as Record<string, string>[]) {
      const bad = new URL((await flow.authorize(params)).headers.get('location')!);
      expect(bad.searchParams.get('error'), JSON.stringify(params)).toBe('invalid_request');
      expect(bad.searchParams.get('state'), JSON.stringify(params)).toBe('st');
    }
    const direct = (await (await fetch(`${app.baseUrl}/authorize?response_type=code`, { redirect: 'manual' })).json()) as { error_description: string };
    expect(direct.error_description).toBe('client_id is required');
    const token = (await (await tokenRequest({ grant_type: 'authorization_code', client_id: flow.clientId })).json()) as { error: string; error_description: string };
    expect(token).toEqual({ error: 'invalid_request', error_description: 'code is required' });
    const elsewhere = await flow.authorize({ resource: 'https://elsewhere.example.com/mcp' });
    const target = new URL(elsewhere.headers.get('location')!);
    expect(target.searchParams.get('error')).toBe('invalid_target'); // RFC 8707
    expect(target.searchParams.get('error_description')).toMatch(/^resource: /);
  });
});
