import { readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

/** What every face publishes about itself agrees: one version, one capability matrix. */
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

describe('published contracts', () => {
  it('carry the package version in the OpenAPI document and the MCP server info', async () => {
    const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
    const doc = (await (await app.get('/v1/openapi.json')).json()) as { info: { version: string } };
    expect(doc.info.version).toBe(version);
    const { key } = await app.newKey('sandbox');
    const client = new Client({ name: 'contract-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${app.baseUrl}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${key}` } } }));
    try {
      expect(client.getServerVersion()?.version).toBe(version);
      // Each data tool says which platforms serve it for each key kind, as GET /v1/platforms does.
      const { tools } = await client.listTools();
      const price = tools.find((t) => t.name === 'get_price')!;
      const matrix = (await (await app.get('/v1/platforms', key)).json()) as { data: { platforms: { platform: string; operations: string[] }[] } };
      const sandboxPrice = matrix.data.platforms.filter((p) => p.operations.includes('price')).map((p) => p.platform).join(', ');
      expect(price.description).toContain(`Platforms: ${sandboxPrice} with sandbox keys;`);
      expect(tools.find((t) => t.name === 'get_job')!.description).not.toContain('Platforms:');
    } finally {
      await client.close();
    }
  });
});
