import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTypes } from '../../tools/build-types.js';
import { startTestApp, type TestApp } from '../support/app.js';

/**
 * What the service publishes, byte for byte: the OpenAPI document, the MCP tool list and the
 * emitted tRPC declarations, each against a file under fixtures/contracts/. A change to any of
 * them is a change to a contract, made on purpose and reviewed as a diff of those files:
 *
 *   UPDATE_CONTRACTS=1 npx vitest run test/contract/pinned-contracts.test.ts
 *
 * A fixed day and public URL make the files change only with the contract.
 */
const DIR = 'fixtures/contracts';
const REFRESH = 'UPDATE_CONTRACTS=1 npx vitest run test/contract/pinned-contracts.test.ts';
const PUBLIC_URL = 'https://api.stays.test';
const TODAY = new Date('2027-01-10T12:00:00.000Z');

function pinned(file: string, fresh: string): void {
  const path = join(DIR, file);
  if (process.env.UPDATE_CONTRACTS || !existsSync(path)) {
    mkdirSync(DIR, { recursive: true });
    writeFileSync(path, fresh);
  }
  // A boolean, not toBe on the strings: a 60 kB diff in the report helps nobody; git diff does.
  expect(readFileSync(path, 'utf8') === fresh, `${path} differs from what the service publishes: if the change is intended, run ${REFRESH} and review the diff`).toBe(true);
}

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ clock: { now: () => TODAY }, config: { publicUrl: PUBLIC_URL } });
});
afterAll(() => app?.close());

describe('published contracts are pinned', () => {
  it('GET /v1/openapi.json', async () => {
    const res = await app.get('/v1/openapi.json');
    expect(res.status).toBe(200);
    pinned('openapi.json', json(await res.json()));
  });

  it('the MCP tool list: names, descriptions, input and output schemas', async () => {
    const { key } = await app.newKey('sandbox');
    const client = new Client({ name: 'contract-pin', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${app.baseUrl}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${key}` } } }));
    try {
      const { tools } = await client.listTools();
      expect(tools.length).toBeGreaterThan(0);
      pinned('mcp-tools.json', json(tools));
    } finally {
      await client.close();
    }
  });

  it('npm run build:types', () => {
    const out = mkdtempSync(join(tmpdir(), 'pinned-types-'));
    try {
      const files = buildTypes(out);
      expect(files).toContain('index.d.ts');
      // One file, each declaration under its path: the paths are part of what a client imports.
      pinned('trpc-types.txt', files.map((f) => `// ---- ${f}\n${readFileSync(join(out, f), 'utf8')}`).join('\n'));
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 600_000); // a TypeScript program over the router: minutes on a busy 2-core machine
});
