import { spawn, type ChildProcess } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { MemoryOAuthClient } from '../support/oauth-client.js';

/**
 * Issue 11 item 8: with no PUBLIC_URL, OAuth works at the address the start banner prints. The
 * real entry point is started; the SDK client's discovery checks that the protected resource
 * named by the server is the URL it was given.
 */
let child: ChildProcess | undefined;
let db: TestDatabase | undefined;
afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child!.on('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  await db?.drop();
});

describe('default public URL', () => {
  it('is the printed listening address, for the docs, the OAuth issuer and the MCP resource', () => {
    expect(parseConfig({}).publicUrl).toBe('http://127.0.0.1:3000');
    expect(parseConfig({ HOST: '0.0.0.0', PORT: '8080' }).publicUrl).toBe('http://localhost:8080');
    expect(parseConfig({ PUBLIC_URL: 'https://api.example.com/' }).publicUrl).toBe('https://api.example.com');
  });

  it('lets the SDK client discover OAuth at the URL the banner prints (PORT=0)', async () => {
    db = await createTestDatabase();
    const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/root', PORT: '0', DATABASE_URL: db.url, RUN_WORKER: 'false', LOG_LEVEL: 'info' };
    child = spawn(process.execPath, ['--import', 'tsx', 'src/app/main.ts'], { cwd: process.cwd(), env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
    // The start log is one JSON line per event; the `listening` event names both addresses.
    const listeningEvent = await new Promise<{ url: string; mcp: string }>((resolve, reject) => {
      const poll = setInterval(() => {
        const line = out.split('\n').find((l) => l.includes('"event":"listening"'));
        if (line) resolve(JSON.parse(line) as { url: string; mcp: string });
        if (line || child!.exitCode !== null) clearInterval(poll);
        if (child!.exitCode !== null) reject(new Error(out));
      }, 50);
    });
    const mcpUrl = listeningEvent.mcp;
    const listening = listeningEvent.url;
    expect(mcpUrl).toBe(`${listening}/mcp`);

    const pr = (await (await fetch(`${listening}/.well-known/oauth-protected-resource/mcp`)).json()) as { resource: string; scopes_supported: string[] };
    expect(pr.resource).toBe(mcpUrl);
    const oauth = new MemoryOAuthClient();
    const client = new Client({ name: 'agent', version: '1' });
    // Discovery, registration and PKCE all pass; the client stops only to send the user to sign in.
    await expect(client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: oauth }))).rejects.toBeInstanceOf(UnauthorizedError);
    expect(oauth.authorizationUrl!.origin).toBe(listening);
    expect(oauth.authorizationUrl!.searchParams.get('resource')).toBe(mcpUrl);
  }, 60_000);
});
