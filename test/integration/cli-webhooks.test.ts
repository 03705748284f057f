import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/db.js';

/** `webhook secret show|rotate`: the per-account signing secret, through the admin CLI on a real database. */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

let testDb: TestDatabase;
let sql: postgres.Sql;
beforeAll(async () => {
  testDb = await createTestDatabase();
  sql = postgres(testDb.url, { max: 1, onnotice: () => {} });
});
afterAll(async () => {
  await sql?.end({ timeout: 5 });
  await testDb?.drop();
});

function cli(...args: string[]): Promise<{ code: number | null; out: unknown; stderr: string }> {
  return new Promise((resolve, reject) => {
    const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: testDb.url, NODE_ENV: 'test' };
    delete env.REDIS_URL;
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/app/cli.ts', ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out: stdout ? JSON.parse(stdout) : null, stderr }));
  });
}

describe('webhook secret commands', () => {
  it('show creates the secret once and shows the same one after; rotate replaces it and keeps the previous for a day', async () => {
    const created = await cli('account', 'create', '--email', 'hooks@example.com');
    const { accountId } = created.out as { accountId: string };
    const first = await cli('webhook', 'secret', 'show', '--account', accountId);
    expect(first.code).toBe(0);
    const { secret } = first.out as { secret: string };
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect((await cli('webhook', 'secret', 'show', '--account', accountId)).out).toEqual({ accountId, secret });

    const rotated = await cli('webhook', 'secret', 'rotate', '--account', accountId);
    expect(rotated.code).toBe(0);
    const out = rotated.out as { secret: string; previousSignsUntil: string };
    expect(out.secret).not.toBe(secret);
    expect(Date.parse(out.previousSignsUntil) - Date.now()).toBeGreaterThan(23 * 3600_000);
    const [row] = await sql<{ secret: string; previous_secret: string }[]>`select secret, previous_secret from webhook_secrets where account_id = ${accountId}`;
    expect(row).toEqual({ secret: out.secret, previous_secret: secret });
  });

  it('refuses an unknown account and a missing --account', async () => {
    const unknown = await cli('webhook', 'secret', 'show', '--account', 'acct_nope');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no account acct_nope');
    expect((await cli('webhook', 'secret', 'rotate')).code).toBe(2);
  });
});
