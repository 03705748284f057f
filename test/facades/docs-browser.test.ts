import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, type Page } from 'playwright-core';
import { CHROMIUM, launchChromium } from '../support/browser.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../src/domain/errors.js';
import { SUB_CODES, WARNING_DOCS } from '../../src/domain/error-catalogue.js';
import { startTestApp, type TestApp } from '../support/app.js';

/** The reference page and error catalogue in a real headless Chromium (Debian's; .ci/run installs it). */
const SCREENSHOTS = process.env.DOCS_SCREENSHOTS ?? join('test-results', 'docs');
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let app: TestApp;
let browser: Browser | undefined;
let key: string;
const external: string[] = [];

/** A page that may only talk to the service: anything else is recorded and refused. */
async function openPage(width: number, height: number): Promise<Page> {
  const page = await browser!.newPage({ viewport: { width, height } });
  await page.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (url.origin === app.baseUrl) return route.continue();
    external.push(url.href);
    return route.abort();
  });
  return page;
}

describe.skipIf(!existsSync(CHROMIUM))('the reference page in a headless browser', () => {
  beforeAll(async () => {
    app = await startTestApp();
    ({ key } = await app.newKey('sandbox'));
    browser = await launchChromium([]);
    mkdirSync(SCREENSHOTS, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('renders every operation, and "try it" with the bearer key gets 200 from the sandbox', async () => {
    const doc = (await (await app.get('/v1/openapi.json')).json()) as Json;
    const page = await openPage(1280, 900);
    await page.goto(`${app.baseUrl}/docs`);
    await page.getByText('Accommodation Data Service').first().waitFor();
    await page.screenshot({ path: join(SCREENSHOTS, 'desktop.png') });
    for (const [path, ops] of Object.entries(doc.paths as Json)) {
      for (const [method, op] of Object.entries(ops as Json)) {
        await page.getByText(op.summary, { exact: true }).first().click();
        const tryIt = page.getByRole('button', { name: new RegExp(`Test Request\\s*\\(${method} ${path.replace(/[{}]/g, '\\$&')}\\)`, 'i') });
        await expect.poll(() => tryIt.count(), { message: `${method} ${path}`, timeout: 15_000 }).toBeGreaterThan(0);
      }
    }

    await page.fill('input[placeholder="Token"]', key);
    await page.getByText('Search stays across platforms', { exact: true }).first().click();
    await page.getByRole('button', { name: /Test Request\s*\(get \/search\)/i }).click();
    const answered = page.waitForResponse((r) => new URL(r.url()).pathname === '/v1/search' && r.request().method() === 'GET');
    await page.getByRole('button', { name: /^Send/ }).first().click();
    const response = await answered;
    expect(response.status()).toBe(200);
    expect(response.request().headers().authorization).toBe(`Bearer ${key}`);
    const body = (await response.json()) as { data: unknown[]; meta: { creditsCharged: number } };
    expect(body.data.length).toBeGreaterThan(0);
    await page.screenshot({ path: join(SCREENSHOTS, 'try-it.png') });
    expect(external).toEqual([]);
  }, 180_000); // ten operations clicked through in a real browser

  it('fits a phone screen', async () => {
    const page = await openPage(390, 844);
    await page.goto(`${app.baseUrl}/docs`);
    await page.getByText('Accommodation Data Service').first().waitFor();
    await page.screenshot({ path: join(SCREENSHOTS, 'phone.png') });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.goto(`${app.baseUrl}/docs/errors`);
    await page.screenshot({ path: join(SCREENSHOTS, 'phone-errors.png') });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(external).toEqual([]);
  }, 60_000);

  it('lands each docUrl on its own catalogue entry', async () => {
    const page = await openPage(1280, 900);
    await page.goto(`${app.baseUrl}/docs/errors`);
    const ids = await page.evaluate(() => [...document.querySelectorAll('section[id]')].map((s) => s.id));
    const expected = [
      ...ERROR_CODES,
      ...Object.entries(SUB_CODES).filter(([, s]) => (ERROR_CODES as string[]).includes(s.code)).map(([sub, s]) => `${s.code}.${sub}`),
      // The warnings a call may carry in meta.warnings have their own entries after the errors.
      ...Object.keys(WARNING_DOCS).map((code) => `warning.${code}`),
    ];
    expect(ids.sort()).toEqual(expected.sort());

    const res = await app.get('/v1/search?location=Lisbon&checkIn=2027-02-30&checkOut=2027-03-02', key);
    const { error } = (await res.json()) as { error: { docUrl: string } };
    expect(error.docUrl).toBe(`${app.baseUrl}/docs/errors#invalid_request.invalid_date`);
    await page.goto(error.docUrl);
    const target = page.locator('section:target');
    expect(await target.getAttribute('id')).toBe('invalid_request.invalid_date');
    expect(await target.textContent()).toContain('2027-02-30');
    expect(await target.isVisible()).toBe(true);
    const box = (await target.boundingBox())!;
    expect(box.y).toBeLessThan(900 / 2); // scrolled to it, not merely somewhere on the page
    await page.screenshot({ path: join(SCREENSHOTS, 'error-entry.png') });
  });
});
