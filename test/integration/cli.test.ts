import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashKey } from '../../src/domain/api-keys.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const ULID = '[0-9A-HJKMNP-TV-Z]{26}';

interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

let testDb: TestDatabase;
let sql: postgres.Sql;

beforeAll(async () => {
  testDb = await createTestDatabase();
  sql = postgres(testDb.url, { max: 2, onnotice: () => {} });
});

afterAll(async () => {
  await sql?.end({ timeout: 5 });
  await testDb?.drop();
});

function childEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: testDb.url, NODE_ENV: 'test' };
  delete env.REDIS_URL;
  return env;
}

/** `npm run cli -- ...` is `tsx src/cli.ts ...`; `node --import tsx` is the same loader, started faster. */
function cli(...args: string[]): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], {
      cwd: ROOT,
      // DATABASE_URL always set: without it the CLI would start the embedded PostgreSQL.
      env: childEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Exactly one line of JSON on the stream. */
function oneJsonLine(text: string): unknown {
  expect(text.endsWith('\n')).toBe(true);
  const lines = text.slice(0, -1).split('\n');
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0]!);
}

describe('admin CLI against a real database', () => {
  let accountId = '';
  let key = '';
  let keyId = '';

  it('account create prints {"accountId"} and opens the account with its plan and credits', async () => {
    const res = await cli('account', 'create', '--email', 'e@x.com', '--plan', 'pro', '--credits', '500');
    expect({ code: res.code, stderr: res.stderr }).toEqual({ code: 0, stderr: '' });
    const out = oneJsonLine(res.stdout) as { accountId: string };
    expect(Object.keys(out)).toEqual(['accountId']);
    expect(out.accountId).toMatch(new RegExp(`^acct_${ULID}$`));
    accountId = out.accountId;

    const rows = await sql<{ email: string; plan: string; email_verified: boolean; credit_balance: string; password_hash: string | null }[]>`
      select email, plan, email_verified, credit_balance::text, password_hash from accounts where id = ${accountId}`;
    expect(rows).toEqual([{ email: 'e@x.com', plan: 'pro', email_verified: true, credit_balance: '500', password_hash: null }]);
    const ledger = await sql<{ amount: string; balance_after: string }[]>`
      select amount::text, balance_after::text from credit_ledger where account_id = ${accountId} order by id`;
    expect(ledger).toEqual([{ amount: '500', balance_after: '500' }]);
  });

  it('key create prints {"key":"svc_live_...","keyId":"key_..."} and stores only its hash', async () => {
    expect(accountId).not.toBe('');
    const res = await cli('key', 'create', '--account', accountId, '--env', 'live');
    expect({ code: res.code, stderr: res.stderr }).toEqual({ code: 0, stderr: '' });
    const out = oneJsonLine(res.stdout) as { key: string; keyId: string };
    expect(Object.keys(out)).toEqual(['key', 'keyId']);
    expect(out.key).toMatch(/^svc_live_[0-9A-Za-z]{43}$/);
    expect(out.keyId).toMatch(new RegExp(`^key_${ULID}$`));
    key = out.key;
    keyId = out.keyId;

    const rows = await sql<{ key_hash: string; prefix: string; env: string; revoked: boolean }[]>`
      select key_hash, prefix, env, revoked_at is not null as revoked from api_keys where account_id = ${accountId}`;
    expect(rows).toEqual([{ key_hash: hashKey(key), prefix: key.slice(0, 15), env: 'live', revoked: false }]);
  });

  it('credits grant prints the new balance {"balance":750}', async () => {
    expect(accountId).not.toBe('');
    const res = await cli('credits', 'grant', '--account', accountId, '--amount', '250');
    expect({ code: res.code, stderr: res.stderr }).toEqual({ code: 0, stderr: '' });
    expect(oneJsonLine(res.stdout)).toEqual({ balance: 750 });

    const [row] = await sql<{ credit_balance: string }[]>`select credit_balance::text from accounts where id = ${accountId}`;
    expect(row?.credit_balance).toBe('750');
    const ledger = await sql<{ amount: string; balance_after: string; reason: string }[]>`
      select amount::text, balance_after::text, reason from credit_ledger where account_id = ${accountId} order by id`;
    expect(ledger).toEqual([
      { amount: '500', balance_after: '500', reason: 'opening grant' },
      { amount: '250', balance_after: '750', reason: 'grant' },
    ]);
  });

  it('key revoke --key <key id> prints {"revoked":true} and revokes the key', async () => {
    expect(key).not.toBe('');
    const [found] = await sql<{ id: string }[]>`select id from api_keys where key_hash = ${hashKey(key)}`;
    expect(found?.id).toBe(keyId);

    const res = await cli('key', 'revoke', '--key', found!.id);
    expect({ code: res.code, stderr: res.stderr }).toEqual({ code: 0, stderr: '' });
    expect(oneJsonLine(res.stdout)).toEqual({ revoked: true });

    const [row] = await sql<{ revoked: boolean }[]>`select revoked_at is not null as revoked from api_keys where id = ${found!.id}`;
    expect(row?.revoked).toBe(true);
  });

  it('credits grant to an unknown account fails with exit code 1 and a JSON error', async () => {
    const res = await cli('credits', 'grant', '--account', 'acct_NOPE', '--amount', '10');
    expect(res.code).toBe(1);
    expect(res.stdout).toBe('');
    expect(oneJsonLine(res.stderr)).toEqual({ error: 'account acct_NOPE not found' });
  });
});

describe('admin CLI usage errors: exit code 2, one JSON error on stderr, nothing on stdout', () => {
  const cases: { name: string; args: string[]; message: RegExp }[] = [
    { name: 'unknown command', args: ['account', 'delete', '--email', 'u@x.com'], message: /^unknown command "account delete"/ },
    { name: 'bad --env', args: ['key', 'create', '--account', 'acct_X', '--env', 'prod'], message: /^--env must be live or sandbox$/ },
    { name: 'bad --plan', args: ['account', 'create', '--email', 'badplan@x.com', '--plan', 'gold'], message: /^--plan must be one of/ },
    { name: 'missing --email', args: ['account', 'create', '--plan', 'pro'], message: /^--email is required/ },
    // A misspelt option is a usage error like any other (the CLI's header: "2 for usage").
    { name: 'unknown option', args: ['account', 'create', '--emial', 'typo@x.com'], message: /--emial/ },
  ];

  it.concurrent.each(cases)('$name', async ({ args, message }) => {
    const res = await cli(...args);
    expect(res.stdout).toBe('');
    const err = oneJsonLine(res.stderr) as { error: string };
    expect(Object.keys(err)).toEqual(['error']);
    expect(err.error).toMatch(message);
    expect(res.code).toBe(2);
  });

  it('created nothing for the refused commands', async () => {
    const rows = await sql`select email from accounts where email in ('u@x.com', 'badplan@x.com', 'typo@x.com')`;
    expect(rows).toHaveLength(0);
    expect(await sql`select 1 from api_keys where account_id = 'acct_X'`).toHaveLength(0);
  });
});
