import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { type Browser, type Page } from 'playwright-core';
import { CHROMIUM, launchChromium } from '../support/browser.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

/** The developer console in a real headless Chromium (Debian's; .ci/run installs it). */
const SHOTS = 'test-results/console';
const PASSWORD = 'console pass 42';
let app: TestApp;
let browser: Browser | undefined;
let accountId: string;
/** Credits charged per operation over the seeded days, as the chart should total them. */
let seededCharges = 0;

/** Each seeded operation's platforms; a search's credits are split between its two. */
const PLATFORMS_OF: Record<string, string[]> = { search: ['airbnb', 'booking'], price: ['vrbo'], reviews: ['google'] };

/**
 * Past billed requests on several days, with the platforms and outcome a debit records: the ledger
 * refuses UPDATE, so rows are appended with their dates. Every fifth search is a partial answer.
 */
async function seedLedger(sql: TestApp['sql'], account: string, now: Date): Promise<number> {
  const ops = ['search', 'price', 'reviews'];
  let balance = 5000;
  let charged = 0;
  await sql`insert into credit_ledger (account_id, entry_key, amount, balance_after, reason, created_at) values (${account}, ${`grant:${account}:seed`}, ${balance}, ${balance}, 'grant', ${new Date(now.getTime() - 29 * 86_400_000)})`;
  for (let day = 20; day >= 1; day--) {
    for (const [i, op] of ops.entries()) {
      if ((day + i) % 3 === 0) continue;
      const credits = 5 * (i + 1) + (day % 4);
      balance -= credits;
      charged += credits;
      const platforms = PLATFORMS_OF[op]!;
      const split = platforms.length === 2 ? [Math.ceil(credits / 2), Math.floor(credits / 2)] : [credits];
      const status = op === 'search' && day % 5 === 0 ? 'partial' : 'complete';
      await sql`insert into credit_ledger (account_id, entry_key, amount, balance_after, reason, created_at, platforms, platform_credits, status)
        values (${account}, ${`req:req_seed_${day}_${op}`}, ${-credits}, ${balance}, ${op}, ${new Date(now.getTime() - day * 86_400_000)}, ${platforms}, ${split}, ${status})`;
    }
  }
  await sql`update accounts set credit_balance = ${balance} where id = ${account}`;
  return charged;
}

async function signIn(page: Page, password: string): Promise<void> {
  await page.fill('#email', 'console@example.com');
  await page.fill('#password', password);
  await page.click('button[type=submit]');
}

describe.skipIf(!existsSync(CHROMIUM))('developer console in a headless browser', () => {
  beforeAll(async () => {
    // `npm test` builds the console first; a file run alone builds it here (about 2 s).
    if (!existsSync('console/dist/index.html')) execFileSync('npx', ['tsx', 'tools/build-console.ts'], { stdio: 'ignore' });
    mkdirSync(SHOTS, { recursive: true });
    app = await startTestApp();
    ({ accountId } = await app.deps.admin.createAccount({ email: 'console@example.com', plan: 'pro', credits: 0, verified: true, password: PASSWORD }));
    seededCharges = await seedLedger(app.sql, accountId, app.deps.clock.now());
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('signs in, shows the balance and the usage chart, creates a key that works and revokes it', async () => {
    const context = await browser!.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const foreign: string[] = [];
    const problems: string[] = [];
    page.on('request', (r) => void (r.url().startsWith(app.baseUrl) || foreign.push(r.url())));
    // The wrong password's 401 is the one failed load expected; a CSP refusal would show here too.
    page.on('console', (m) => void (m.type() === 'error' && !m.text().includes('status of 401') && problems.push(m.text())));
    page.on('pageerror', (e) => void problems.push(e.message));

    const first = await page.goto(`${app.baseUrl}/console/`);
    const csp = first!.headers()['content-security-policy'] ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");

    // The sign-in page says where `npm start` kept the demo account's password.
    expect(await page.textContent('main')).toContain('demo-console-sign-in in the data folder (DATA_DIR, .data/ by default)');
    await signIn(page, 'not the password');
    expect(await page.textContent('[role=alert]')).toContain('not right');
    await signIn(page, PASSWORD);
    const expectedBalance = 5000 - seededCharges;
    await expect.poll(() => page.textContent('[data-testid=balance]')).toBe(`${expectedBalance.toLocaleString('en')} credits`);
    expect(await page.textContent('[data-testid=plan]')).toBe('Pro');

    // The session cookie is HttpOnly and SameSite=Strict: scripts on the page cannot read it.
    const [cookie] = await context.cookies();
    expect(cookie).toMatchObject({ name: 'ads_console', httpOnly: true, sameSite: 'Strict', path: '/console' });
    expect(await page.evaluate(() => document.cookie)).toBe('');

    // Charts: uPlot draws a canvas, with one legend entry per seeded operation.
    await page.waitForSelector('[data-testid=usage-chart] canvas');
    expect(await page.textContent('[data-testid=usage-total]')).toContain(`${seededCharges.toLocaleString('en')} credits`);
    const legend = await page.locator('[data-testid=usage-chart] .u-legend .u-label').allTextContents();
    expect(legend).toEqual(expect.arrayContaining(['price', 'reviews', 'search']));
    const painted = await page.evaluate(() => {
      const canvas = document.querySelector<HTMLCanvasElement>('[data-testid=usage-chart] canvas')!;
      const data = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
      let coloured = 0;
      for (let i = 0; i < data.length; i += 4) if (data[i + 3]! > 0 && !(data[i] === data[i + 1] && data[i + 1] === data[i + 2])) coloured++;
      return coloured;
    });
    expect(painted).toBeGreaterThan(200); // coloured lines, not an empty frame

    // The same credits split by platform: one legend entry per seeded platform.
    await page.getByRole('button', { name: 'By platform' }).click();
    await page.waitForSelector('[data-testid=usage-chart][data-split=platform] canvas');
    const platformLegend = await page.locator('[data-testid=usage-chart] .u-legend .u-label').allTextContents();
    expect(platformLegend).toEqual(expect.arrayContaining(['airbnb', 'booking', 'google', 'vrbo']));
    expect(platformLegend).not.toContain('search');

    // Billed requests with their platforms and outcome, and the filters.
    const newest = page.locator('tr[data-request-id="req_seed_1_search"]');
    await expect.poll(() => newest.textContent()).toContain('airbnb, booking');
    expect(await page.locator('tr[data-request-id="req_seed_5_search"] td').nth(4).textContent()).toBe('partial');
    await page.selectOption('select[name=status]', 'partial');
    await expect.poll(() => page.locator('table.requests tbody tr').count()).toBe(3); // searches of days 20, 10 and 5 (day 15 has none)
    await page.selectOption('select[name=status]', '');
    await page.selectOption('select[name=platform]', 'vrbo');
    await expect.poll(async () => new Set(await page.locator('table.requests tbody tr td:nth-child(3)').allTextContents())).toEqual(new Set(['price']));
    await page.screenshot({ path: `${SHOTS}/desktop-platforms.png`, fullPage: true });
    await page.selectOption('select[name=platform]', '');
    await page.getByRole('button', { name: 'By operation' }).click();

    // A key created in the console works on /v1 ...
    await page.click('text=New sandbox key');
    const key = (await page.textContent('[data-testid=new-key]'))!;
    expect(key).toMatch(/^svc_test_/);
    expect((await app.get('/v1/account', key)).status).toBe(200);
    await page.screenshot({ path: `${SHOTS}/desktop.png`, fullPage: true });
    // The README's picture: UPDATE_SCREENSHOT=1 npx vitest run test/facades/console-browser.test.ts
    if (process.env.UPDATE_SCREENSHOT) await page.screenshot({ path: 'docs/console.png' });

    // ... and once revoked (after the confirmation), gets the 401.
    const row = page.locator(`tr[data-key-prefix="${key.slice(0, 15)}"]`); // the list shows prefixes only
    await row.getByRole('button', { name: 'Revoke', exact: true }).click();
    await row.getByRole('button', { name: 'Yes, revoke' }).click();
    await expect.poll(() => row.locator('td').nth(4).textContent()).toContain('revoked');
    expect((await app.get('/v1/account', key)).status).toBe(401);

    // The sandbox button shows the JSON a sandbox key would get.
    await page.click('text=Run sandbox search');
    const json = JSON.parse((await page.textContent('[data-testid=sandbox-json]'))!) as { data: unknown[]; meta: { creditsCharged: number } };
    expect(json).toMatchObject({ meta: { creditsCharged: 0 } });
    expect(json.data).toHaveLength(5);

    expect(foreign).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('lays out at phone width', async () => {
    // The first test's console sandbox search, written now: a dashed series beside the credit lines.
    await app.deps.sandboxCalls.flush();
    const context = await browser!.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 1 });
    const page = await context.newPage();
    await page.goto(`${app.baseUrl}/console/`);
    await signIn(page, PASSWORD);
    await page.waitForSelector('[data-testid=usage-chart] canvas');
    expect(await page.textContent('[data-testid=usage-sandbox]')).toMatch(/^1 sandbox call answered/);
    expect(await page.locator('[data-testid=usage-chart] .u-legend .u-label').allTextContents()).toEqual(expect.arrayContaining(['search', 'sandbox calls']));
    // Nothing wider than the screen: the page does not scroll sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.screenshot({ path: `${SHOTS}/phone.png`, fullPage: true });
    await page.locator('section[aria-labelledby=usage-title]').screenshot({ path: `${SHOTS}/phone-usage.png` });
    await page.getByRole('button', { name: 'By platform' }).click();
    await page.waitForSelector('[data-testid=usage-chart][data-split=platform] canvas');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.locator('section[aria-labelledby=requests-title]').screenshot({ path: `${SHOTS}/phone-requests.png` });
    await page.click('text=Run sandbox search');
    await page.waitForSelector('[data-testid=sandbox-json]');
    await page.locator('section[aria-labelledby=sandbox-title]').screenshot({ path: `${SHOTS}/phone-sandbox.png` });
    await context.close();
  });

  it('issue 22 item 4: a sandbox-only account at 390 px: keys and jobs fit, an empty state says what will appear, filters list the platforms that serve', async () => {
    const { accountId: sandboxOnly } = await app.deps.admin.createAccount({ email: 'sandbox-only@example.com', plan: 'free', credits: 0, verified: true, password: PASSWORD });
    const keys = [];
    for (let i = 0; i < 3; i++) keys.push((await app.deps.admin.createKey(sandboxOnly, 'sandbox')).key);
    // Two async jobs (pending: this app runs no worker), so the jobs table has rows with long ids.
    for (const limit of [5, 6]) expect((await app.get(`/v1/search?location=sandbox:async&limit=${limit}`, keys[0])).status).toBe(202);
    const context = await browser!.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 1 });
    const page = await context.newPage();
    await page.goto(`${app.baseUrl}/console/`);
    await page.fill('#email', 'sandbox-only@example.com');
    await page.fill('#password', PASSWORD);
    await page.click('button[type=submit]');
    await page.waitForSelector('tr[data-key-prefix]');
    await page.waitForSelector('section[aria-labelledby=jobs-title] code');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    // Every Revoke button, and every job row, inside its card.
    for (const section of ['keys-title', 'jobs-title']) {
      const card = (await page.locator(`section[aria-labelledby=${section}]`).boundingBox())!;
      for (const box of await page.locator(`section[aria-labelledby=${section}] button, section[aria-labelledby=${section}] tr`).evaluateAll((els) => els.map((e) => e.getBoundingClientRect().right))) {
        expect(box, section).toBeLessThanOrEqual(card.x + card.width + 0.5);
      }
    }
    // Nothing charged: an empty state says what will appear, not an empty chart grid.
    expect(await page.textContent('[data-testid=usage-empty]')).toMatch(/sandbox/i);
    expect(await page.locator('[data-testid=usage-chart] canvas').count()).toBe(0);
    expect(await page.textContent('[data-testid=requests-empty]')).toMatch(/sandbox/i);
    // The platform filter lists what serves this account's keys (sandbox: the four sandbox platforms).
    const options = await page.locator('select[name=platform] option').allTextContents();
    expect(options).toEqual(['all', 'airbnb', 'booking', 'vrbo', 'google']);
    await page.screenshot({ path: `${SHOTS}/phone-sandbox-only.png`, fullPage: true });

    // Its free calls: two answers and a failure (not counted), written by the flush, then shown as
    // a count and a dashed series, still within 390 px.
    for (const location of ['Lisbon', 'Porto']) expect((await app.get(`/v1/search?location=${location}&limit=3`, keys[1])).status).toBe(200);
    expect((await app.get('/v1/search?location=sandbox:unavailable', keys[1])).status).toBe(503);
    await app.deps.sandboxCalls.flush();
    await page.reload();
    await page.waitForSelector('[data-testid=usage-chart] canvas');
    expect(await page.textContent('[data-testid=usage-sandbox]')).toMatch(/^2 sandbox calls answered \(0 credits\)/);
    expect(await page.textContent('[data-testid=usage-total]')).toContain('0 credits charged');
    expect(await page.locator('[data-testid=usage-chart] .u-legend .u-label').allTextContents()).toEqual(['Time', 'sandbox calls']); // no credit lines: nothing charged
    expect(await page.textContent('[data-testid=usage-empty]')).toMatch(/sandbox calls are free/);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const usageCard = (await page.locator('section[aria-labelledby=usage-title]').boundingBox())!;
    const chart = (await page.locator('[data-testid=usage-chart] canvas').boundingBox())!;
    expect(chart.x + chart.width).toBeLessThanOrEqual(usageCard.x + usageCard.width + 0.5);
    await page.locator('section[aria-labelledby=usage-title]').screenshot({ path: `${SHOTS}/phone-sandbox-calls.png` });
    await context.close();
  });
});
