import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

/** The console's session and tRPC endpoints over real HTTP: sessions, CSRF, scoping, bad input. */
let app: TestApp;

async function signIn(email: string, password: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${app.baseUrl}/console/session`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify({ email, password }) });
}

async function session(email: string, password: string): Promise<{ cookie: string; csrf: string }> {
  const res = await signIn(email, password);
  expect(res.status).toBe(200);
  const cookie = res.headers.get('set-cookie')!.split(';')[0]!;
  const { csrf } = (await res.json()) as { csrf: string };
  return { cookie, csrf };
}

const call = (path: string, s: { cookie?: string; csrf?: string }, body?: unknown) =>
  fetch(`${app.baseUrl}/console/trpc/console.${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { ...(s.cookie ? { Cookie: s.cookie } : {}), ...(s.csrf ? { 'X-CSRF-Token': s.csrf } : {}), 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
const apiError = async (res: Response) => ((await res.json()) as { error: { data: { apiError: { error: { code: string; param?: string } } } } }).error.data.apiError.error;

describe('console sessions and router', () => {
  let ana: string;
  let bo: string;
  beforeAll(async () => {
    // `npm test` builds the console first; a file run alone builds it here.
    if (!existsSync('console/dist/index.html')) execFileSync('npx', ['tsx', 'tools/build-console.ts'], { stdio: 'ignore' });
    app = await startTestApp();
    ({ accountId: ana } = await app.deps.admin.createAccount({ email: 'ana@example.com', plan: 'starter', credits: 250, verified: true, password: 'ana password 1' }));
    ({ accountId: bo } = await app.deps.admin.createAccount({ email: 'bo@example.com', plan: 'free', credits: 0, verified: true, password: 'bo password 22' }));
  });
  afterAll(async () => app?.close());

  it('a session reads its own account; without the cookie it is 401, without the CSRF header 403', async () => {
    const s = await session('Ana@Example.com', 'ana password 1');
    const ok = await call('overview', s);
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { result: { data: unknown } }).result.data).toMatchObject({ email: 'ana@example.com', plan: 'Starter', balance: 250, liveRequestsPerMinute: 60 });
    expect((await call('overview', { csrf: s.csrf })).status).toBe(401);
    const noCsrf = await call('overview', { cookie: s.cookie });
    expect(noCsrf.status).toBe(403);
    expect(await apiError(noCsrf)).toMatchObject({ code: 'permission_denied', param: 'X-CSRF-Token' });
    // An API key is no console credential.
    const { key } = await app.deps.admin.createKey(ana, 'sandbox');
    const withKey = await fetch(`${app.baseUrl}/console/trpc/console.overview`, { headers: { Authorization: `Bearer ${key}` } });
    expect(withKey.status).toBe(401);
  });

  it('a key of another account cannot be revoked (404), its own can; revoked keys get 401 on /v1', async () => {
    const s = await session('ana@example.com', 'ana password 1');
    const other = await app.deps.admin.createKey(bo, 'sandbox');
    const refused = await call('revokeKey', s, { keyId: other.keyId });
    expect(refused.status).toBe(404);
    expect(await apiError(refused)).toMatchObject({ code: 'not_found', param: 'keyId' });
    expect((await app.get('/v1/account', other.key)).status).toBe(200);

    const created = (await (await call('createKey', s, { env: 'sandbox' })).json()) as { result: { data: { key: string; keyId: string } } };
    const { key, keyId } = created.result.data;
    expect((await app.get('/v1/account', key)).status).toBe(200);
    expect((await call('revokeKey', s, { keyId })).status).toBe(200);
    expect((await app.get('/v1/account', key)).status).toBe(401);
    const list = (await (await call('keys', s)).json()) as { result: { data: { keyId: string; revokedAt: string | null; prefix: string }[] } };
    expect(list.result.data.find((k) => k.keyId === keyId)?.revokedAt).not.toBeNull();
    expect(JSON.stringify(list)).not.toContain(key); // the list shows prefixes only
  });

  it('the sandbox search runs the search procedure for the account, free; its triggers answer as for a key', async () => {
    const s = await session('ana@example.com', 'ana password 1');
    const res = await call('sandboxSearch', s, { location: 'Porto' });
    expect(res.status).toBe(200);
    const { result } = (await res.json()) as { result: { data: { data: unknown[]; meta: { creditsCharged: number; requestId: string } } } };
    expect(result.data).toMatchObject({ meta: { creditsCharged: 0 } });
    expect(result.data.data).toHaveLength(5);
    expect(result.data.meta.requestId).toBe(res.headers.get('x-request-id'));
    const down = await call('sandboxSearch', s, { location: 'sandbox:unavailable' });
    expect(down.status).toBe(503);
    expect(await apiError(down)).toMatchObject({ code: 'upstream_unavailable' });
    expect((await call('sandboxSearch', s, { location: '' })).status).toBe(400);
    const async = await call('sandboxSearch', s, { location: 'sandbox:async' });
    expect(async.status).toBe(400);
    expect((await apiError(async)).param).toBe('location');
    const [{ balance }] = await app.sql<[{ balance: string }]>`select credit_balance::text as balance from accounts where id = ${ana}`;
    expect(balance).toBe('250');
  });

  it('bad input is a 400 naming the field, never a 500', async () => {
    const s = await session('ana@example.com', 'ana password 1');
    const badEnv = await call('createKey', s, { env: 'production' });
    expect(badEnv.status).toBe(400);
    expect(await apiError(badEnv)).toMatchObject({ code: 'invalid_request', param: 'env' });
    const badLimit = await call(`requests?input=${encodeURIComponent(JSON.stringify({ limit: 0 }))}`, s);
    expect(badLimit.status).toBe(400);
    expect((await apiError(badLimit)).param).toBe('limit');
    const noPassword = await fetch(`${app.baseUrl}/console/session`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email: 'ana@example.com' }) });
    expect(noPassword.status).toBe(400);
    expect(((await noPassword.json()) as { error: { param: string } }).error.param).toBe('password');
    const notJson = await fetch(`${app.baseUrl}/console/session`, { method: 'POST', body: 'email=a' });
    expect(notJson.status).toBe(400);
  });

  it('refuses a sign-in posted from another origin, and signs out', async () => {
    expect((await signIn('ana@example.com', 'ana password 1', { Origin: 'https://evil.example' })).status).toBe(403);
    const s = await session('ana@example.com', 'ana password 1');
    const out = await fetch(`${app.baseUrl}/console/session`, { method: 'DELETE', headers: { Cookie: s.cookie, 'X-CSRF-Token': s.csrf } });
    expect(out.status).toBe(200);
    expect((await call('overview', s)).status).toBe(401);
  });

  it('wrong passwords are throttled per e-mail, with Retry-After', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < app.deps.config.signIn.perAccount + 1; i++) statuses.push((await signIn('bo@example.com', `wrong ${i}`)).status);
    expect(statuses.slice(0, -1).every((s) => s === 401)).toBe(true);
    const locked = await signIn('bo@example.com', 'bo password 22');
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('serves the built page under a CSP that allows only our origin', async () => {
    const res = await fetch(`${app.baseUrl}/console/`);
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'");
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    const html = await res.text();
    expect(html).not.toMatch(/<script>|https?:\/\//); // no inline script, nothing from elsewhere
    expect((await fetch(`${app.baseUrl}/console/assets/nothing.js`)).status).toBe(404);
  });
});
