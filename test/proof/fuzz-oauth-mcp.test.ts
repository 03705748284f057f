import { createHash, randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { openSignIn } from '../support/oauth-client.js';

/**
 * Bad input on the OAuth endpoints, the sign-in page and /mcp tool arguments (issue 10 item 5):
 * never a 500, never an HTML stack. The OAuth endpoints answer RFC 6749 JSON errors, the sign-in
 * page its own 4xx page, /mcp a JSON-RPC error or a tool error with the service's error codes.
 */
const RUNS = Number(process.env.FUZZ_OAUTH_RUNS ?? 60);
const SEED = Number(process.env.FUZZ_SEED ?? 20_260_101);
const REDIRECT = 'http://127.0.0.1:9/cb';
let app: TestApp;
let key: string;
let clientId: string;
let page: { requestId: string; csrf: string; cookie: string };

beforeAll(async () => {
  app = await startTestApp({ config: { signIn: { perAccount: 100_000, perAddress: 100_000 } } });
  ({ key } = await app.newKey('sandbox'));
  const reg = await fetch(`${app.baseUrl}/register`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none', client_name: 'Fuzz' }) });
  clientId = ((await reg.json()) as { client_id: string }).client_id;
  const challenge = createHash('sha256').update(randomBytes(32)).digest('base64url');
  page = await openSignIn(new URL(`${app.baseUrl}/authorize?${new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: 'S256' })}`));
});
afterAll(() => app.close());

const form = (path: string, body: string, headers: Record<string, string> = {}) =>
  fetch(`${app.baseUrl}${path}`, { method: 'POST', redirect: 'manual', headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers }, body });

/** An OAuth endpoint's error: 4xx, JSON, an RFC 6749 error code, no stack or SQL. */
async function expectOAuthError(res: Response, what: string): Promise<{ error: string; error_description?: string }> {
  const text = await res.text();
  expect(res.status, `${what}: ${text.slice(0, 200)}`).toBeGreaterThanOrEqual(400);
  expect(res.status, what).toBeLessThan(500);
  expect(res.headers.get('content-type'), what).toMatch(/application\/json/);
  expect(text, what).not.toMatch(/at .+\.(js|ts):\d+|SELECT|node_modules|\/work\//i);
  const body = JSON.parse(text) as { error: string };
  expect(body.error, what).toMatch(/^(invalid_request|invalid_client|invalid_grant|unauthorized_client|unsupported_grant_type|invalid_scope|invalid_target|invalid_client_metadata|invalid_redirect_uri|invalid_token|unsupported_token_type|method_not_allowed)$/);
  return body as { error: string; error_description?: string };
}

describe('the NUL byte and broken bodies of issue 10 item 5', () => {
  it('POST /token and /revoke with client_id=%00 answer JSON client errors', async () => {
    await expectOAuthError(await form('/token', 'grant_type=authorization_code&code=x&code_verifier=y&client_id=%00'), 'token');
    await expectOAuthError(await form('/token', 'grant_type=refresh_token&refresh_token=%00&client_id=%00'), 'token refresh');
    await expectOAuthError(await form('/revoke', 'token=%00&client_id=%00'), 'revoke');
  });

  it('GET /authorize?client_id=%00 answers a JSON 400; a NUL in state or the challenge is an error redirect, not a 500', async () => {
    const direct = await fetch(`${app.baseUrl}/authorize?client_id=%00&response_type=code&code_challenge=x&code_challenge_method=S256`, { redirect: 'manual' });
    expect((await expectOAuthError(direct, 'authorize')).error).toBe('invalid_client');
    for (const extra of ['state=%00', `code_challenge=${'a'.repeat(42)}%00`]) {
      const res = await fetch(`${app.baseUrl}/authorize?response_type=code&client_id=${clientId}&redirect_uri=${encodeURIComponent(REDIRECT)}&code_challenge=${'a'.repeat(43)}&code_challenge_method=S256&${extra}`, { redirect: 'manual' });
      expect(res.status, extra).toBe(302);
      expect(new URL(res.headers.get('location')!).searchParams.get('error'), extra).toBe('invalid_request');
    }
  });

  it('POST /oauth/sign-in with request_id=%00 or an e-mail with NUL answers the page 4xx', async () => {
    const expired = await form('/oauth/sign-in', 'request_id=%00&csrf=%00&email=%00&password=%00', { Cookie: 'ads_csrf=%E0%A4%A' });
    expect(expired.status).toBe(400);
    expect(await expired.text()).toMatch(/expired/);
    const nulEmail = await form('/oauth/sign-in', new URLSearchParams({ request_id: page.requestId, csrf: page.csrf, email: 'a\u0000@example.com', password: 'x', consent: 'yes' }).toString(), { Cookie: page.cookie });
    expect(nulEmail.status).toBe(401);
  });

  it('POST /register with a body of { is a JSON 400 invalid_client_metadata; NUL metadata too', async () => {
    const broken = await fetch(`${app.baseUrl}/register`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{' });
    expect((await expectOAuthError(broken, 'register {')).error).toBe('invalid_client_metadata');
    const nul = await fetch(`${app.baseUrl}/register`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ redirect_uris: [REDIRECT], client_name: 'a\u0000b' }) });
    expect((await expectOAuthError(nul, 'register NUL')).error).toBe('invalid_client_metadata');
  });
});

/** Strings a hostile client sends: control characters, NUL, unicode, long, percent garbage. */
const nasty = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom('\u0000', '%00', '\uFFFF', '\uD800', '{', '[]', 'null', '../..', "' or 1=1 --", 'x'.repeat(5000), 'javascript:alert(1)', 'http://evil.example.com/cb#x'),
);

describe('property: OAuth endpoints never answer 5xx', () => {
  it('/token, /revoke, /register and /authorize with random fields', async () => {
    await fc.assert(
      fc.asyncProperty(fc.record({ a: nasty, b: nasty, c: nasty, grant: fc.constantFrom('authorization_code', 'refresh_token', 'client_credentials', '') }), async ({ a, b, c, grant }) => {
        const token = await form('/token', new URLSearchParams({ grant_type: grant, client_id: a, code: b, code_verifier: c, refresh_token: b, redirect_uri: c }).toString());
        await expectOAuthError(token, `token ${JSON.stringify([a, b, c])}`);
        const revoke = await form('/revoke', new URLSearchParams({ token: a, client_id: b }).toString());
        expect(revoke.status, 'revoke').toBeLessThan(500);
        if (revoke.status >= 400) await expectOAuthError(revoke, 'revoke');
        const reg = await fetch(`${app.baseUrl}/register`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ redirect_uris: [a], client_name: b, scope: c }) });
        expect(reg.status, `register ${JSON.stringify([a, b])}`).toBeLessThan(500);
        if (reg.status >= 400) await expectOAuthError(reg, 'register');
        const auth = await fetch(`${app.baseUrl}/authorize?${new URLSearchParams({ response_type: 'code', client_id: a, redirect_uri: b, code_challenge: c, code_challenge_method: 'S256', state: b, scope: c })}`, { redirect: 'manual' });
        expect(auth.status, `authorize ${JSON.stringify([a, b, c])}`).toBeLessThan(500);
        if (auth.status >= 400) await expectOAuthError(auth, 'authorize');
        const known = await fetch(`${app.baseUrl}/authorize?${new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: REDIRECT, code_challenge: c, code_challenge_method: 'S256', state: b, scope: a, resource: b })}`, { redirect: 'manual' });
        expect([200, 302], `authorize known client ${JSON.stringify([a, b, c])}`).toContain(known.status);
        if (known.status === 302) expect(new URL(known.headers.get('location')!).searchParams.get('error')).not.toBe('server_error');
      }),
      { numRuns: RUNS, seed: SEED },
    );
  }, 120_000);

  it('/oauth/sign-in with random fields answers a page, never 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(nasty, nasty, nasty, async (a, b, c) => {
        const bodies: Record<string, string>[] = [{ request_id: a, csrf: b, email: c, password: a }, { request_id: page.requestId, csrf: page.csrf, email: a, password: b, env: c, consent: c }];
        for (const body of bodies) {
          const res = await form('/oauth/sign-in', new URLSearchParams(body).toString(), { Cookie: page.cookie });
          expect(res.status, JSON.stringify(body).slice(0, 200)).toBeLessThan(500);
          expect(await res.text()).not.toMatch(/at .+\.(js|ts):\d+|node_modules/);
        }
      }),
      { numRuns: RUNS, seed: SEED },
    );
  }, 120_000);
});

describe('property: /mcp tool arguments never answer 5xx or an internal error', () => {
  const TOOLS = ['search_stays', 'check_availability', 'get_listing', 'get_price', 'compare_prices', 'get_reviews', 'get_job', 'no_such_tool'];
  const value = fc.oneof(nasty, fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.array(nasty, { maxLength: 3 }), fc.dictionary(nasty, nasty, { maxKeys: 3 }));
  const args = fc.oneof(
    fc.record({ location: value, platform: value, listingId: value, id: value, adults: value, limit: value, checkIn: value, checkOut: value, jobId: value, cursor: value }, { requiredKeys: [] }),
    value,
  );

  // Sandbox accounts allow 30 MCP calls a minute: a fresh account every 25 calls.
  let calls = 0;
  it('random arguments to every tool', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...TOOLS), args, async (name, argumentsValue) => {
        if (++calls % 25 === 0) ({ key } = await app.newKey('sandbox'));
        const res = await fetch(`${app.baseUrl}/mcp`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: argumentsValue } }),
        });
        const what = `${name} ${JSON.stringify(argumentsValue)?.slice(0, 200)}`;
        expect(res.status, what).toBe(200);
        const body = (await res.json()) as { error?: { code: number; message: string }; result?: { isError?: boolean; content: { text: string }[] } };
        if (body.error) {
          expect(body.error.code, what).toBe(-32602);
          expect(body.error.message.length, what).toBeLessThan(200);
          return;
        }
        if (body.result!.isError) {
          const code = (JSON.parse(body.result!.content[0]!.text) as { error: { code: string } }).error.code;
          expect(code, what).not.toBe('internal_error');
        }
      }),
      { numRuns: RUNS, seed: SEED },
    );
  }, 120_000);
});
