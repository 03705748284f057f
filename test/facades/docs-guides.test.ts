import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { guideIndex, renderGuidePages } from '../../src/facades/docs/guides-page.js';

/** The guides as the service serves them: offline pages, linked from /docs and /llms.txt. */
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.close());

const guides = readdirSync('docs/guides').filter((f) => f.endsWith('.md') && f !== 'README.md').map((f) => f.slice(0, -3));

describe('/docs/guides', () => {
  it('serves the index, linking every guide, and each guide as a page that loads nothing', async () => {
    const index = await app.get('/docs/guides');
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await index.text();
    for (const g of guides) expect(html, g).toContain(`href="/docs/guides/${g}"`);
    for (const g of guides) {
      const page = await app.get(`/docs/guides/${g}`);
      expect(page.status, g).toBe(200);
      const body = await page.text();
      expect(body, g).not.toMatch(/<script|<link |src="http|@import/);
      expect(body, g).toContain('<h1 id=');
    }
  });

  it('renders an operation guide with its parameter table, its examples and links between pages', async () => {
    const body = await (await app.get('/docs/guides/search')).text();
    expect(body).toContain('<td><code>location</code></td>');
    expect(body).toContain('<pre><code class="language-sh">curl -s -H');
    expect(body).toContain('href="/docs/guides/rest-api"');
    expect(body).not.toContain('.md"');
    // An anchor into another guide lands on a heading id of that page.
    const retries = await (await app.get('/docs/guides/jobs-webhooks-and-retries')).text();
    expect(retries).toContain('id="safe-retries-waiting-and-webhooks"');
  });

  it('a guide that does not exist is the JSON 404 of every unknown path', async () => {
    const res = await app.get('/docs/guides/nope');
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: { code: 'not_found' } });
  });

  it('/docs and /llms.txt link the guides', async () => {
    expect(await (await app.get('/docs')).text()).toContain('href="/docs/guides"');
    const llms = await (await app.get('/llms.txt')).text();
    expect(llms).toContain('## Guides');
    expect(llms).toContain(`${app.baseUrl}/docs/guides/price-compare`);
  });

  it('a deployment without the docs folder starts with no guide pages rather than failing', () => {
    expect(renderGuidePages('/nonexistent/docs/guides').size).toBe(0);
    expect(guideIndex('/nonexistent/docs/guides')).toEqual([]);
  });
});
