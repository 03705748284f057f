import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { type Browser } from 'playwright-core';
import { CHROMIUM, launchChromium } from '../support/browser.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

/** The sign-in and consent page in a real headless Chromium (Debian's; .ci/run installs it). */
const REDIRECT = 'http://127.0.0.1:9/callback';
let app: TestApp;
let browser: Browser | undefined;

describe.skipIf(!existsSync(CHROMIUM))('OAuth sign-in page in a headless browser', () => {
  beforeAll(async () => {
    app = await startTestApp();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('signs in, consents, and hands a code the client exchanges with its PKCE verifier', async () => {
    await app.deps.admin.createAccount({ email: 'eva@example.com', plan: 'pro', credits: 10, verified: true, password: 'open sesame 42' });
    const reg = (await (await fetch(`${app.baseUrl}/register`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none', client_name: 'Browser Agent' }) })).json()) as { client_id: string };
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const url = `${app.baseUrl}/authorize?${new URLSearchParams({ response_type: 'code', client_id: reg.client_id, redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: 'S256', state: 'xyz', resource: `${app.baseUrl}/mcp` })}`;

    const page = await browser!.newPage();
    let callback = '';
    await page.route('http://127.0.0.1:9/**', (route) => {
      callback = route.request().url();
      return route.fulfill({ status: 200, body: 'signed in' });
    });
    await page.goto(url);
    expect(await page.textContent('h1')).toBe('Sign in');
    expect(await page.textContent('body')).toContain('Browser Agent');

    await page.fill('#email', 'eva@example.com');
    await page.fill('#password', 'wrong password');
    await page.check('input[name=consent]');
    await page.click('button[value=allow]');
    expect(await page.textContent('[role=alert]')).toContain('not right');

    await page.fill('#email', 'eva@example.com');
    await page.fill('#password', 'open sesame 42');
    await page.check('input[name=consent]');
    await page.click('button[value=allow]');
    await page.waitForURL(/127\.0\.0\.1:9\/callback/);
    const back = new URL(callback);
    expect(back.searchParams.get('state')).toBe('xyz');

    const token = await fetch(`${app.baseUrl}/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code: back.searchParams.get('code')!, code_verifier: verifier, client_id: reg.client_id, redirect_uri: REDIRECT }).toString(),
    });
    expect(token.status).toBe(200);
    expect(((await token.json()) as { token_type: string }).token_type).toBe('Bearer');
    await page.close();
  });

  it('cannot be framed, keeps the e-mail after a wrong password, names the unticked box, shows where it returns and the key kind', async () => {
    await app.deps.admin.createAccount({ email: 'finn@example.com', plan: 'pro', credits: 0, verified: true, password: 'open sesame 42' });
    const reg = (await (await fetch(`${app.baseUrl}/register`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none', client_name: 'Claimed Name' }) })).json()) as { client_id: string };
    const challenge = createHash('sha256').update(randomBytes(32).toString('base64url')).digest('base64url');
    const url = `${app.baseUrl}/authorize?${new URLSearchParams({ response_type: 'code', client_id: reg.client_id, redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: 'S256', state: 'f' })}`;

    // Item 7: a page of another origin frames the sign-in page; the browser refuses to show it.
    const attacker = await browser!.newPage();
    await attacker.route('http://localhost:9/**', (route) => route.fulfill({ status: 200, contentType: 'text/html', body: `<iframe id="f" src="${url}" width="600" height="600"></iframe>` }));
    const blocked = new Promise<string>((resolve) => attacker.on('requestfailed', (r) => r.url().startsWith(`${app.baseUrl}/authorize`) && resolve(r.failure()?.errorText ?? '')));
    const loaded = attacker.waitForResponse((r) => r.url().startsWith(`${app.baseUrl}/authorize`));
    await attacker.goto('http://localhost:9/frame');
    await loaded; // the server answered; the browser then refused to show the answer in a frame
    expect(await blocked).toBe('net::ERR_BLOCKED_BY_RESPONSE');
    // The frame's URL changes to the error page a moment after the refusal: wait for it, under load too.
    await expect.poll(() => attacker.frames().find((f) => f !== attacker.mainFrame())?.url() ?? '').toMatch(/^chrome-error:/);
    await attacker.close();

    const page = await browser!.newPage();
    const res = await page.goto(url);
    expect(res!.headers()['x-frame-options']).toBe('DENY');
    expect(res!.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res!.headers()['content-security-policy']).toContain("default-src 'none'");
    // Item 5: the page says where the user goes back to and that the name is unverified.
    expect(await page.textContent('#redirect-host')).toBe('127.0.0.1:9');
    expect(await page.textContent('#client-note')).toContain('registered itself');
    // Item 9: the key kind is a visible choice.
    expect(await page.isChecked('input[name=env][value=auto]')).toBe(true);
    expect(await page.textContent('fieldset')).toContain('Sandbox');

    await page.fill('#email', 'finn@example.com');
    await page.fill('#password', 'wrong password');
    await page.check('input[name=env][value=sandbox]');
    await page.click('button[value=allow]');
    expect(await page.textContent('[role=alert]')).toContain('not right');
    expect(await page.inputValue('#email')).toBe('finn@example.com');
    expect(await page.isChecked('input[name=env][value=sandbox]')).toBe(true);

    await page.fill('#password', 'open sesame 42');
    await page.click('button[value=allow]'); // consent not ticked
    expect(await page.textContent('[role=alert]')).toContain('You did not tick');
    expect(await page.inputValue('#email')).toBe('finn@example.com');
    await page.close();
  });
});

it.runIf(!existsSync(CHROMIUM))('notes that the browser test was skipped', () => {
  console.warn(`Skipped the OAuth browser test: no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH).`);
});
