import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../src/domain/errors.js';
import { SUB_CODES } from '../../src/domain/error-catalogue.js';
import { SERVICE_VERSION } from '../../src/version.js';
import { startTestApp, type TestApp } from '../support/app.js';

/** Issue 26 item 4: /llms.txt, /llms-full.txt and the MCP server card, from what the service publishes. */
let app: TestApp;
let key: string;
type Doc = { paths: Record<string, Record<string, { parameters?: { name: string }[] }>> };
let doc: Doc;
beforeAll(async () => {
  app = await startTestApp();
  ({ key } = await app.newKey('sandbox'));
  doc = (await (await app.get('/v1/openapi.json')).json()) as Doc;
});
afterAll(() => app.close());

const TOOL_NAMES = ['search_stays', 'check_availability', 'get_listing', 'get_price', 'compare_prices', 'get_reviews', 'get_job'];

describe('/llms.txt', () => {
  it('says what the service is, how to authenticate, the seven tools and every REST operation in a line each, and the links', async () => {
    const res = await app.get('/llms.txt');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/markdown/);
    const text = await res.text();
    expect(text).toMatch(/^# Accommodation Data Service\n\n> /);
    expect(text).toMatch(/## Authentication[\s\S]*Bearer svc_test_[\s\S]*OAuth 2\.1/);
    for (const name of TOOL_NAMES) expect(text.split('\n').filter((l) => l.startsWith(`- \`${name}\``)), name).toHaveLength(1);
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const method of Object.keys(ops)) expect(text, `${method} ${path}`).toContain(`- \`${method.toUpperCase()} /v1${path}\`: `);
    }
    for (const link of ['/v1/openapi.json', '/docs)', '/docs/errors', '/mcp)', '/llms-full.txt']) expect(text).toContain(`${app.baseUrl}${link}`);
    expect(text).not.toMatch(/^  - /m); // no parameter lists on the short page
  });

  it('the full page adds every parameter of every operation and tool, and every error code and sub-code', async () => {
    const text = await (await app.get('/llms-full.txt')).text();
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const section = text.slice(text.indexOf(`- \`${method.toUpperCase()} /v1${path}\``)).split('\n- ')[0]!;
        for (const p of op.parameters ?? []) expect(section, `${method} ${path} ${p.name}`).toContain(`  - \`${p.name}\` (`);
      }
    }
    const tools = (await (await app.get('/.well-known/mcp.json')).json()) as { tools: { name: string; inputSchema: { properties: Record<string, unknown> } }[] };
    for (const tool of tools.tools) {
      const section = text.slice(text.indexOf(`- \`${tool.name}\` (`)).split('\n- ')[0]!;
      for (const arg of Object.keys(tool.inputSchema.properties)) expect(section, `${tool.name} ${arg}`).toContain(`  - \`${arg}\` (argument`);
    }
    for (const code of ERROR_CODES) expect(text).toContain(`- \`${code}\` (HTTP `);
    for (const [sub, { code }] of Object.entries(SUB_CODES)) expect(text).toContain(`\`${code}.${sub}\``);
  });
});

describe('/.well-known/mcp.json', () => {
  it('is the server card: this deployment\'s /mcp, the versions it speaks, auth, and the very tools tools/list gives', async () => {
    const res = await app.get('/.well-known/mcp.json');
    expect(res.status).toBe(200);
    const card = (await res.json()) as { name: string; version: string; remotes: { url: string; supportedProtocolVersions: string[]; authentication: unknown }[]; tools: unknown[]; icons: { src: string }[] };
    expect(card.version).toBe(SERVICE_VERSION);
    expect(card.remotes[0]).toMatchObject({ url: `${app.baseUrl}/mcp`, authentication: { required: true, schemes: ['oauth2', 'bearer'] } });
    expect(card.remotes[0]!.supportedProtocolVersions).toEqual(expect.arrayContaining(['2026-07-28', '2025-11-25']));
    expect(card.icons[0]!.src).toBe(`${app.baseUrl}/icon.svg`);
    const listed = await fetch(`${app.baseUrl}/mcp`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'tools/list' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 't', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} } } }),
    });
    expect(card.tools).toEqual(((await listed.json()) as { result: { tools: unknown[] } }).result.tools);
  });
});
