import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryCache } from '../../src/adapters/memory/cache.js';
import { FakeClock } from '../../src/adapters/system/clock.js';
import { createClientMetadataFetcher, isPublicAddress, PUBLIC_HTTPS, urlProblem, type FetchPolicy } from '../../src/adapters/system/client-metadata.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { openSignIn, submitSignIn } from '../support/oauth-client.js';

/**
 * Issue 11 item 6: a URL as client_id (Client ID Metadata Documents), fetched under the SSRF rules
 * of test/proof/ssrf.test.ts. The production policy refuses hostile URLs before any connection;
 * the limits are proven against a local document server with a policy that admits only it.
 */
let docs: Server;
let docsUrl = '';
const hits: Record<string, number> = {};
const REDIRECT = 'http://127.0.0.1:9/cb';

beforeAll(async () => {
  docs = createServer((req, res) => {
    const path = req.url ?? '/';
    hits[path] = (hits[path] ?? 0) + 1;
    const self = `${docsUrl}${path}`;
    if (path === '/client.json') return void res.end(JSON.stringify({ client_id: self, client_name: 'Documented Agent', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' }));
    if (path === '/huge.json') return void res.end(JSON.stringify({ client_id: self, pad: 'x'.repeat(100_000) }));
    if (path === '/slow.json') return void setTimeout(() => res.end('{}'), 2_000);
    if (path === '/redirect.json') return void res.writeHead(302, { Location: 'http://169.254.169.254/latest/meta-data/' }).end();
    if (path === '/other-id.json') return void res.end(JSON.stringify({ client_id: 'https://elsewhere.example.com/c.json', redirect_uris: [REDIRECT] }));
    if (path === '/evil-redirect.json') return void res.end(JSON.stringify({ client_id: self, redirect_uris: ['http://evil.example.com/cb'] }));
    if (path === '/secret.json') return void res.end(JSON.stringify({ client_id: self, redirect_uris: [REDIRECT], token_endpoint_auth_method: 'client_secret_post' }));
    res.statusCode = 404;
    res.end();
  });
  await new Promise<void>((resolve) => docs.listen(0, '127.0.0.1', resolve));
  docsUrl = `http://127.0.0.1:${(docs.address() as AddressInfo).port}`;
});
afterAll(async () => {
  docs.closeAllConnections();
  await new Promise((resolve) => docs.close(resolve));
});

/** Like production, but it may reach the local document server (and nothing else) over http. */
const localPolicy = (): FetchPolicy => ({ ...PUBLIC_HTTPS, schemes: ['http:', 'https:'], addressAllowed: (ip) => ip === '127.0.0.1', timeoutMs: 500 });

describe('the production policy', () => {
  it('accepts public unicast addresses only', () => {
    for (const ip of ['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8']) expect(isPublicAddress(ip), ip).toBe(true);
    for (const ip of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', '::', 'fd00::1', 'fe80::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '224.0.0.1', 'not-an-ip']) {
      expect(isPublicAddress(ip), ip).toBe(false);
    }
  });

  it('refuses hostile client ids before any DNS or connection', () => {
    const hostile = [
      'http://agent.example.com/client.json', 'https://agent.example.com/', 'https://agent.example.com', 'https://user:pw@agent.example.com/c.json',
      'https://agent.example.com/c.json#x', 'https://agent.example.com:8443/c.json', 'https://127.0.0.1/c.json', 'https://[::1]/c.json',
      'https://169.254.169.254/latest/meta-data/', 'https://2130706433/c.json', 'https://0x7f000001/c.json', 'https://10.0.0.1/c.json',
      'https://[::ffff:127.0.0.1]/c.json', 'https://agent.example.com/a/../c.json', 'file:///etc/passwd', 'https://agent.example.com/c.json\u0000',
    ];
    for (const url of hostile) expect(urlProblem(url, PUBLIC_HTTPS), url).not.toBeNull();
    expect(urlProblem('https://agent.example.com/oauth/client.json', PUBLIC_HTTPS)).toBeNull();
  });

  it('refuses a name that resolves to loopback, after DNS and before connecting', async () => {
    const fetcher = createClientMetadataFetcher(createMemoryCache(new FakeClock()));
    await expect(fetcher.get('https://localhost/client.json')).rejects.toThrow(/non-public address|does not resolve/);
  });
});

describe('limits, against a local document server', () => {
  it('fetches once per TTL, refuses big, slow, redirected and mislabelled documents, and caches refusals', async () => {
    const clock = new FakeClock();
    const fetcher = createClientMetadataFetcher(createMemoryCache(clock), localPolicy());
    const doc = await fetcher.get(`${docsUrl}/client.json`);
    expect(doc.client_name).toBe('Documented Agent');
    await fetcher.get(`${docsUrl}/client.json`);
    expect(hits['/client.json']).toBe(1);
    clock.advance(PUBLIC_HTTPS.ttlMs + 1);
    await fetcher.get(`${docsUrl}/client.json`);
    expect(hits['/client.json']).toBe(2);

    await expect(fetcher.get(`${docsUrl}/huge.json`)).rejects.toThrow(/larger than 65536 bytes/);
    await expect(fetcher.get(`${docsUrl}/slow.json`)).rejects.toThrow(/took too long|could not be fetched/);
    await expect(fetcher.get(`${docsUrl}/redirect.json`)).rejects.toThrow(/HTTP 302/);
    await expect(fetcher.get(`${docsUrl}/huge.json`)).rejects.toThrow(/larger than/);
    expect(hits['/huge.json']).toBe(1); // the refusal is cached too
  });
});

describe('sign-in with a URL client_id', () => {
  let app: TestApp;

  it('advertises support, signs in, names the document host on the page, and exchanges the code', async () => {
    app = await startTestApp({ clientMetadata: createClientMetadataFetcher(createMemoryCache(new FakeClock()), localPolicy()) });
    try {
      const as = (await (await app.get('/.well-known/oauth-authorization-server')).json()) as { client_id_metadata_document_supported: boolean };
      expect(as.client_id_metadata_document_supported).toBe(true);
      await app.deps.admin.createAccount({ email: 'doc@example.com', plan: 'pro', credits: 0, verified: true, password: 'pw pw pw pw' });
      const clientId = `${docsUrl}/client.json`;
      const verifier = randomBytes(32).toString('base64url');
      const challenge = createHash('sha256').update(verifier).digest('base64url');
      const authorize = (id: string, redirect = REDIRECT) =>
        fetch(`${app.baseUrl}/authorize?${new URLSearchParams({ response_type: 'code', client_id: id, redirect_uri: redirect, code_challenge: challenge, code_challenge_method: 'S256', state: 's' })}`, { redirect: 'manual' });

      const page = await openSignIn(new URL((await authorize(clientId)).url));
      expect(page.html).toContain('Documented Agent');
      expect(page.html).toContain(`described by a document at <strong>127.0.0.1:`);
      const res = await submitSignIn(app.baseUrl, page, { email: 'doc@example.com', password: 'pw pw pw pw', consent: 'yes' });
      expect(res.status).toBe(302);
      const code = new URL(res.headers.get('location')!).searchParams.get('code')!;
      const token = await fetch(`${app.baseUrl}/token`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ grant_type: 'authorization_code', code, code_verifier: verifier, client_id: clientId, redirect_uri: REDIRECT }).toString() });
      expect(token.status).toBe(200);

      // Refusals are RFC 6749 JSON errors naming the reason.
      for (const [id, reason] of [
        [`${docsUrl}/other-id.json`, /its client_id must be the URL/],
        [`${docsUrl}/evil-redirect.json`, /redirect_uris/],
        [`${docsUrl}/secret.json`, /public client/],
        [`${docsUrl}/missing.json`, /HTTP 404/],
        ['https://10.0.0.1/client.json', /not a public address/],
      ] as const) {
        const refused = await authorize(id);
        expect(refused.status, id).toBe(400);
        const body = (await refused.json()) as { error: string; error_description: string };
        expect(body.error, id).toBe('invalid_client');
        expect(body.error_description, id).toMatch(reason);
      }
      // A redirect URI the document does not list is refused, like for a registered client.
      expect((await authorize(clientId, 'https://evil.example.com/cb')).status).toBe(400);
    } finally {
      await app.close();
    }
  });
});
