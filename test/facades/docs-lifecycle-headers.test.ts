import { existsSync } from 'node:fs';
import { type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../src/adapters/system/clock.js';
import type { Deprecation } from '../../src/domain/lifecycle/deprecations.js';
import { CHROMIUM, launchChromium } from '../support/browser.js';
import { startTestApp, type TestApp } from '../support/app.js';

/**
 * /docs as a reader sees it in a real headless Chromium: the rate-limit headers on every answer and
 * the deprecation headers where something is deprecated (a test-only entry: the shipped table is
 * empty), each listed under the operation's response with its description.
 */
const TABLE: Deprecation[] = [
  { target: { kind: 'value', operation: 'search', parameter: 'platforms', value: 'airbnb' }, deprecatedOn: '2027-01-15', sunsetOn: '2027-08-01', replacement: 'Ask another platform.', changelogAnchor: 'test-airbnb' },
];
const RATE_LIMIT = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'RateLimit', 'RateLimit-Policy'];
const DEPRECATION = ['Deprecation', 'Sunset', 'Link'];

let app: TestApp;
let browser: Browser | undefined;

/** The header names /docs lists under an operation's 200 once the reader opens them. */
async function successHeadersShown(summary: string, operation: string): Promise<{ names: string[]; intro: string }> {
  const page = await browser!.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(`${app.baseUrl}/docs`);
  await page.getByText('Accommodation Data Service').first().waitFor();
  const intro = await page.evaluate(() => document.body.innerText);
  await page.getByText(summary, { exact: true }).first().click();
  const section = page.locator(`section[id$="/${operation}"]`);
  // Scalar folds a response's headers behind a toggle beside "Headers" (read out as "Headers: N").
  const group = section.locator('.headers-tree-group').first();
  const toggle = group.locator('button[data-schema-toggle]').first();
  // On a loaded machine a click can land before Scalar has wired the response up: click again
  // only while the headers' toggle has not appeared (a second click on an open response folds it).
  for (let attempt = 0; attempt < 4; attempt++) {
    if (await toggle.isVisible()) break;
    await section.getByText('Successful response', { exact: true }).first().click();
    await toggle.waitFor({ timeout: 8_000 }).catch(() => undefined);
  }
  await toggle.click();
  await group.getByText('RateLimit-Policy', { exact: true }).first().waitFor();
  const names = await group.locator('.property-name').allInnerTexts();
  await page.close();
  return { names: names.map((n) => n.trim()), intro };
}

describe.skipIf(!existsSync(CHROMIUM))('/docs shows the rate-limit and deprecation headers', () => {
  beforeAll(async () => {
    app = await startTestApp({ clock: new FakeClock('2027-03-01T09:00:00Z'), deprecations: TABLE });
    browser = await launchChromium([]);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('lists them under a response, and the introduction states both', async () => {
    const search = await successHeadersShown('Search stays across platforms', 'GET/search');
    expect(search.names).toEqual(expect.arrayContaining([...RATE_LIMIT, ...DEPRECATION]));
    const account = await successHeadersShown('The calling key and its account', 'GET/account');
    expect(account.names).toEqual(expect.arrayContaining(RATE_LIMIT));
    expect(account.names.filter((n) => DEPRECATION.includes(n))).toEqual([]);
    for (const name of [...RATE_LIMIT, 'Deprecation: @<unix seconds>', 'Sunset: <HTTP date>', 'rel="deprecation"']) expect(search.intro).toContain(name);
  }, 120_000);
});
