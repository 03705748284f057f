import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { operationParameters, parameterTable, withTable, type OpenApiDoc } from '../../tools/guide-parameters.js';

/**
 * The README stays one read, and the guides say what the service does: each REST operation's
 * guide lists every parameter the OpenAPI document has, in the document's own words (its table is
 * written from the pinned document, which test/contract/pinned-contracts.test.ts holds equal to
 * what the service serves), and every link between the documents lands on a file.
 *
 *   UPDATE_GUIDES=1 npx vitest run test/contract/guides.test.ts    rewrites the tables
 */
const GUIDES = 'docs/guides';
const doc = JSON.parse(readFileSync('fixtures/contracts/openapi.json', 'utf8')) as OpenApiDoc;

/** One guide per REST operation a developer calls with data parameters. */
export const OPERATION_GUIDES = [
  ['search.md', 'get', '/search'],
  ['availability.md', 'get', '/availability'],
  ['listing.md', 'get', '/listing/{platform}/{id}'],
  ['price.md', 'get', '/price'],
  ['price-compare.md', 'get', '/price-compare'],
  ['reviews.md', 'get', '/reviews'],
] as const;

const guideFiles = () => readdirSync(GUIDES).filter((f) => f.endsWith('.md'));

describe('the README and the guides', () => {
  it('the README fits in one read (at most 300 lines) and links the guides index', () => {
    const readme = readFileSync('README.md', 'utf8');
    expect(readme.split('\n').length).toBeLessThanOrEqual(300);
    expect(readme).toContain('](docs/guides/README.md)');
  });

  it.each(OPERATION_GUIDES)('%s lists every parameter of the operation, as the OpenAPI document words it', (file, method, path) => {
    const at = join(GUIDES, file);
    const text = readFileSync(at, 'utf8');
    const fresh = withTable(text, parameterTable(doc, method, path));
    if (process.env.UPDATE_GUIDES) writeFileSync(at, fresh);
    expect(readFileSync(at, 'utf8') === fresh, `${at}'s parameter table is stale: UPDATE_GUIDES=1 npx vitest run test/contract/guides.test.ts`).toBe(true);
  });

  it('every parameter of every operation has a description', () => {
    const missing: string[] = [];
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const method of Object.keys(ops)) {
        if (!['get', 'post', 'delete', 'put', 'patch'].includes(method)) continue;
        for (const p of operationParameters(doc, method, path)) {
          if (!(p.description ?? p.schema?.description)) missing.push(`${method.toUpperCase()} ${path} ${p.name}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it('the guides index lists every guide, and every relative link in the README and the guides lands on a file', () => {
    const index = readFileSync(join(GUIDES, 'README.md'), 'utf8');
    for (const f of guideFiles().filter((f) => f !== 'README.md')) expect(index, `${f} is not in the guides index`).toContain(`](${f})`);
    const broken: string[] = [];
    for (const file of ['README.md', ...guideFiles().map((f) => join(GUIDES, f))]) {
      const text = readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^(https?:|mailto:|#|\/)/.test(target!)) continue;
        const path = normalize(join(dirname(file), target!.split('#')[0]!));
        if (!existsSync(path)) broken.push(`${file}: ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });
});
