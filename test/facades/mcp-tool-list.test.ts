import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { portabilityFindings } from '../support/schema-lint.js';

/**
 * Issue 34 item 4, a tool list an agent can afford: `tools/list` was 219,225 bytes, 192,618 of
 * them output schemas (get_job 51,544; search_stays 36,808), about 54,000 tokens for a client that
 * hands output schemas to its model, and 310 warnings from the Inspector's `--strict` about
 * array-valued `type`. Checked on what real clients receive: the SDK 1.x client after
 * `listTools()` (legacy era) and a raw 2026-07-28 request (modern era). That every answer still
 * validates against these schemas, in every view, is mcp-output-schemas.test.ts and
 * fields-view.test.ts.
 */
const OUTPUT_SCHEMA_MAX = 12_000;
/** Input schemas and descriptions are 21.7 kB of the list; output schemas were 192.6 kB of it. */
const OUTPUT_SCHEMAS_MAX = 48_000;
/** The figure: 60 kB for the whole JSON-RPC answer, in either era. */
const LIST_MAX = 60_000;

let app: TestApp;
let key: string;
let listed: Tool[];
beforeAll(async () => {
  app = await startTestApp();
  ({ key } = await app.newKey('sandbox'));
  const client = new Client({ name: 'tool-list-check', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${app.baseUrl}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${key}` } } }));
  try {
    ({ tools: listed } = await client.listTools());
  } finally {
    await client.close();
  }
}, 60_000);
afterAll(() => app?.close());

const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

/** tools/list as a 2026-07-28 client sends it: no initialize, the version in _meta and the headers. */
async function modernList(): Promise<{ size: number; tools: Tool[] }> {
  const res = await fetch(`${app.baseUrl}/mcp`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'tools/list' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/list',
      params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1.0.0' }, 'io.modelcontextprotocol/clientCapabilities': {} } },
    }),
  });
  const text = await res.text();
  return { size: Buffer.byteLength(text), tools: (JSON.parse(text) as { result: { tools: Tool[] } }).result.tools };
}

async function legacyListBytes(): Promise<number> {
  const res = await fetch(`${app.baseUrl}/mcp`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
  return Buffer.byteLength(await res.text());
}

describe('tools/list is affordable', () => {
  it('the SDK client lists every output schema within 12 kB', () => {
    expect(listed).toHaveLength(7);
    const sizes = Object.fromEntries(listed.map((t) => [t.name, bytes(t.outputSchema)]));
    for (const [name, size] of Object.entries(sizes)) expect(size, `${name}: ${JSON.stringify(sizes)}`).toBeLessThanOrEqual(OUTPUT_SCHEMA_MAX);
    expect(Object.values(sizes).reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(OUTPUT_SCHEMAS_MAX);
  });

  it('both eras list the same tools, within the budget', async () => {
    const modern = await modernList();
    expect(modern.tools.map((t) => [t.name, t.outputSchema, t.inputSchema])).toEqual(listed.map((t) => [t.name, t.outputSchema, t.inputSchema]));
    expect(modern.size).toBeLessThanOrEqual(LIST_MAX);
    expect(await legacyListBytes()).toBeLessThanOrEqual(LIST_MAX);
  });

  it('no schema has a portability problem under the Inspector --strict rules (array-valued type above all)', () => {
    const findings = listed.flatMap((t) => [
      ...portabilityFindings(t.inputSchema).map((f) => `${t.name} inputSchema${f.path}: ${f.rule}`),
      ...portabilityFindings(t.outputSchema).map((f) => `${t.name} outputSchema${f.path}: ${f.rule}`),
    ]);
    expect(findings).toEqual([]);
  });

  it("get_job states its result by reference: the tool whose output schema holds each operation's data", () => {
    const job = listed.find((t) => t.name === 'get_job')!;
    for (const tool of listed.filter((t) => t.name !== 'get_job')) expect(job.outputSchema!.description).toContain(tool.name);
    const data = (job.outputSchema!.properties as Record<string, { properties: Record<string, unknown> }>).data!;
    expect(data.properties.operation).toEqual({ type: 'string', enum: ['search', 'availability', 'listing', 'price', 'priceCompare', 'reviews'] });
  });
});
