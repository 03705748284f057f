import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

/**
 * JSON-RPC on `/mcp` as the MCP revisions have it (issue 34, item 3), with raw HTTP and with the
 * SDK 1.x client after it has listed the tools: every member of a 2025-03-26 batch answered,
 * later revisions' batches refused whole, notifications answered 202 with no body, the modern
 * era's version and header checks before argument checks, transport refusals worded as the
 * SDK's transport words them, and JSON (never Express's HTML) on every `/.well-known/` path.
 */
let app: TestApp;
let key: string;
beforeAll(async () => {
  app = await startTestApp({});
  ({ key } = await app.newKey('sandbox'));
});
afterAll(() => app.close());

describe('/.well-known/', () => {
  it('answers a JSON 404 on every path it does not publish, the OAuth names included', async () => {
    for (const path of ['/.well-known/foo', '/.well-known/oauth-authorization-server/extra', '/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/foo', '/.well-known/oauth-foo', '/.well-known/openid-configuration']) {
      const res = await app.get(path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type'), path).toMatch(/^application\/json/);
      const body = (await res.json()) as { error: { code: string; message: string } };
      expect(body.error.code, path).toBe('not_found');
      expect(body.error.message, path).toContain(path);
    }
  });

  it('still serves the metadata it publishes', async () => {
    for (const path of ['/.well-known/oauth-authorization-server', '/.well-known/oauth-protected-resource/mcp', '/.well-known/mcp.json']) {
      const res = await app.get(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type'), path).toMatch(/^application\/json/);
    }
  });
});
