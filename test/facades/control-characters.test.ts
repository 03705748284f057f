import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

/**
 * Issue 23, item 5: control characters are refused at the edge of every face with a 400 naming
 * the field (a NUL byte in the console's sign-in or revokeKey reached PostgreSQL, answered 500 and
 * logged the SQL with its parameter). Nothing here may answer 5xx or log SQL.
 */
let app: TestApp;
let key: string;
const lines: string[] = [];
let session: { cookie: string; csrf: string };

beforeAll(async () => {
  app = await startTestApp({ log: pino({ level: 'info' }, { write: (line: string) => void lines.push(line) }) });
  ({ key } = await app.newKey('sandbox'));
  await app.deps.admin.createAccount({ email: 'nul@example.com', plan: 'free', credits: 0, verified: true, password: 'a long password 1' });
  const res = await fetch(`${app.baseUrl}/console/session`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email: 'nul@example.com', password: 'a long password 1' }) });
  expect(res.status).toBe(200);
  session = { cookie: res.headers.get('set-cookie')!.split(';')[0]!, csrf: ((await res.json()) as { csrf: string }).csrf };
});
afterAll(() => app.close());

const restError = async (res: Response) => ((await res.json()) as { error: { code: string; param?: string } }).error;
const trpcError = async (res: Response) => ((await res.json()) as { error: { data: { apiError: { error: { code: string; param?: string } } } } }).error.data.apiError.error;

describe('control characters at the edge of every face', () => {
  it('POST /console/session: 400 naming email or password, never 500', async () => {
    for (const field of ['email', 'password'] as const) {
      const body = { email: 'nul@example.com', password: 'a long password 1', [field]: `x\u0000y` };
      const res = await fetch(`${app.baseUrl}/console/session`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
      expect(res.status).toBe(400);
      expect(await restError(res)).toMatchObject({ code: 'invalid_request', param: field });
    }
  });

  it('console procedures: 400 naming the field (revokeKey keyId, sandboxSearch location)', async () => {
    for (const [procedure, input, field] of [['revokeKey', { keyId: 'key_\u0000' }, 'keyId'], ['sandboxSearch', { location: 'Lis\u001bbon' }, 'location']] as const) {
      const res = await fetch(`${app.baseUrl}/console/trpc/console.${procedure}`, {
        method: 'POST',
        headers: { Cookie: session.cookie, 'X-CSRF-Token': session.csrf, 'Content-Type': 'application/json' },
        body: JSON.stringify(input),
      });
      expect(res.status).toBe(400);
      expect(await trpcError(res)).toMatchObject({ code: 'invalid_request', param: field });
    }
  });

  it('REST (query and body), tRPC and MCP: 400 naming the field', async () => {
    const query = await app.get('/v1/search?location=Lis%00bon', key);
    expect(query.status).toBe(400);
    expect(await restError(query)).toMatchObject({ code: 'invalid_request', param: 'location' });
    const body = await fetch(`${app.baseUrl}/v1/search`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ location: 'Lisbon', platforms: ['air\nbnb'] }) });
    expect(body.status).toBe(400);
    expect(await restError(body)).toMatchObject({ param: 'platforms[0]' });
    const trpc = await app.get(`/trpc/search?input=${encodeURIComponent(JSON.stringify({ location: 'a\u0007b' }))}`, key);
    expect(trpc.status).toBe(400);
    expect(await trpcError(trpc)).toMatchObject({ code: 'invalid_request', param: 'location' });
    const mcp = await fetch(`${app.baseUrl}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search_stays', arguments: { location: 'Lis\u0000bon' } } }),
    });
    expect(mcp.status).toBeLessThan(500);
    const text = await mcp.text();
    expect(text).toContain('invalid_request');
    expect(text).toContain('location');
  });

  it('OAuth: registration, authorization and token refuse them with an RFC error naming the field', async () => {
    const register = await fetch(`${app.baseUrl}/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ client_name: 'a\u0000b', redirect_uris: ['http://127.0.0.1:9/cb'] }) });
    expect(register.status).toBe(400);
    expect(await register.json()).toMatchObject({ error: 'invalid_client_metadata', error_description: expect.stringContaining('client_name') });
    const authorize = await fetch(`${app.baseUrl}/authorize?client_id=x%00&response_type=code`, { redirect: 'manual' });
    expect(authorize.status).toBe(400);
    expect(await authorize.json()).toMatchObject({ error_description: expect.stringContaining('client_id') });
    const token = await fetch(`${app.baseUrl}/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=authorization_code&code=a%00b&client_id=x' });
    expect(token.status).toBe(400);
    expect(await token.json()).toMatchObject({ error: 'invalid_request', error_description: expect.stringContaining('code') });
    // The sign-in form answers its own 4xx page for a broken field (test/proof/fuzz-oauth-mcp.test.ts).
    const signIn = await fetch(`${app.baseUrl}/oauth/sign-in`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'email=a%00b&password=x' });
    expect(signIn.status).toBeGreaterThanOrEqual(400);
    expect(signIn.status).toBeLessThan(500);
  });

  it('logged nothing of SQL or parameters, and no internal error', async () => {
    await new Promise((r) => setTimeout(r, 50));
    const log = lines.join('\n');
    expect(log).not.toMatch(/Failed query|select .* from|insert into|params:/i);
    expect(log).not.toContain('"level":50');
  });
});
