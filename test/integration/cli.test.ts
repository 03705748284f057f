import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashKey } from '../../src/domain/accounts/api-keys.js';
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

/** `npm run cli -- ...` is `tsx src/app/cli.ts ...`; `node --import tsx` is the same loader, started faster. */
function cli(...args: string[]): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/app/cli.ts', ...args], {
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

  it('key list shows the key by id and prefix, never the key', async () => {
    const res = await cli('key', 'list', '--account', accountId);
    expect(res.code, res.stderr).toBe(0);
    const out = oneJsonLine(res.stdout) as { accountId: string; keys: { keyId: string; prefix: string; env: string; revokedAt: string | null }[] };
    expect(out.accountId).toBe(accountId);
    expect(out.keys).toEqual([expect.objectContaining({ keyId, prefix: key.slice(0, 15), env: 'live', revokedAt: null })]);
    expect(res.stdout).not.toContain(key);
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

  it('credits grant to an unknown account fails with exit code 1 and account_not_found', async () => {
    const res = await cli('credits', 'grant', '--account', 'acct_NOPE', '--amount', '10');
    expect(res.code).toBe(1);
    expect(res.stdout).toBe('');
    expect(oneJsonLine(res.stderr)).toMatchObject({ error: { code: 'account_not_found', message: 'no account acct_NOPE' } });
  });
});

/** Runs a command that must fail: nothing on stdout, one JSON error on stderr. */
async function failing(code: number, ...args: string[]): Promise<{ code: string; message: string; hint?: string }> {
  const res = await cli(...args);
  expect(res.stdout).toBe('');
  const { error } = oneJsonLine(res.stderr) as { error: { code: string; message: string; hint?: string } };
  expect(res.code, res.stderr).toBe(code);
  return error;
}

async function ok(...args: string[]): Promise<unknown> {
  const res = await cli(...args);
  expect({ code: res.code, stderr: res.stderr }).toEqual({ code: 0, stderr: '' });
  return oneJsonLine(res.stdout);
}

describe('admin CLI errors never surprise (issue: raw SQL, silent debits, exit 0 on nothing done)', () => {
  it('a duplicate e-mail answers email_taken, not the SQL', async () => {
    await ok('account', 'create', '--email', 'Dup@x.com');
    const error = await failing(1, 'account', 'create', '--email', 'dup@x.com');
    expect(error.code).toBe('email_taken');
    expect(JSON.stringify(error)).not.toMatch(/insert|params|Failed query/i);
  });

  it.concurrent.each([['-5'], ['0'], ['1.5'], ['1e3'], ['ten']])('credits grant --amount %s is a usage error and moves nothing', async (amount) => {
    const error = await failing(2, 'credits', 'grant', '--account', 'acct_ANY', '--amount', amount);
    // parseArgs itself refuses "-5" (it reads as an option); either way a usage error naming --amount.
    expect(error.code).toBe('usage');
    expect(error.message).toMatch(/--amount/);
  });

  it('key revoke of an unknown key exits 1 with key_not_found', async () => {
    expect(await failing(1, 'key', 'revoke', '--key', 'key_nope')).toMatchObject({ code: 'key_not_found' });
  });

  it('key create for an unknown account is account_not_found, not a foreign-key error', async () => {
    expect(await failing(1, 'key', 'create', '--account', 'acct_NOPE', '--env', 'live')).toMatchObject({ code: 'account_not_found' });
  });

  it('a negative or fractional --amount is the CLI\'s own usage error, not Node\'s "ambiguous" one', async () => {
    for (const amount of ['-100', '-1.5', '2.5', '1e3']) {
      const error = await failing(2, 'credits', 'grant', '--account', 'acct_X', '--amount', amount);
      expect(error, amount).toMatchObject({ code: 'usage', message: '--amount must be a positive whole number' });
    }
    expect(await failing(2, 'credits', 'revoke', '--account', 'acct_X', '--amount=-5')).toMatchObject({ message: '--amount must be a positive whole number' });
  });

  it('a command group with --help (account --help) lists its commands, with exit 0', async () => {
    for (const group of ['account', 'key', 'credits', 'jobs']) {
      const listed = (await ok(group, '--help')) as { commands: { command: string; usage: string }[] };
      expect(listed.commands.length, group).toBeGreaterThan(0);
      expect(listed.commands.every((c) => c.command.startsWith(`${group} `) && c.usage.startsWith(c.command)), group).toBe(true);
    }
    expect(await failing(2, 'account')).toMatchObject({ code: 'usage', hint: expect.stringContaining('account --help') });
  });

  it('the command the README documents (npm run -s cli) prints one JSON object and nothing else on stdout', async () => {
    const res = await new Promise<CliResult>((resolve, reject) => {
      const child = spawn('npm', ['run', '-s', 'cli', '--', 'account', '--help'], { cwd: ROOT, env: childEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
      child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
    expect(res.code, res.stderr).toBe(0);
    expect(oneJsonLine(res.stdout)).toMatchObject({ commands: expect.any(Array) });
  }, 30_000);

  it('--help works for the CLI and for each command, with exit 0', async () => {
    const all = (await ok('--help')) as { commands: { command: string }[] };
    expect(all.commands.map((c) => c.command)).toEqual(expect.arrayContaining(['account create', 'account show', 'account verify', 'account set-password', 'key create', 'key list', 'key revoke', 'credits grant', 'credits revoke', 'usage', 'jobs list']));
    for (const { command } of all.commands) {
      const one = (await ok(...command.split(' '), '--help')) as { command: string; usage: string };
      expect(one.command).toBe(command);
      expect(one.usage.startsWith(command)).toBe(true);
    }
  }, 120_000);
});

describe('admin CLI commands an operator needs', () => {
  let accountId = '';

  it('account show, verify and set-password', async () => {
    ({ accountId } = (await ok('account', 'create', '--email', 'ops@x.com', '--unverified', '--credits', '40', '--plan', 'starter')) as { accountId: string });
    const { keyId } = (await ok('key', 'create', '--account', accountId, '--env', 'sandbox')) as { keyId: string };
    expect(await ok('account', 'show', '--email', 'OPS@x.com')).toMatchObject({
      accountId, email: 'ops@x.com', plan: 'starter', emailVerified: false, hasPassword: false, balance: 40, keys: [expect.objectContaining({ keyId, env: 'sandbox', revokedAt: null })],
    });
    expect(await ok('account', 'verify', '--account', accountId)).toEqual({ accountId, emailVerified: true });
    expect(await ok('account', 'set-password', '--account', accountId, '--password', 'correct horse')).toEqual({ accountId, passwordSet: true });
    expect(await ok('account', 'show', '--account', accountId)).toMatchObject({ emailVerified: true, hasPassword: true });
    const [row] = await sql<{ password_hash: string }[]>`select password_hash from accounts where id = ${accountId}`;
    expect(row!.password_hash).toMatch(/^scrypt\$/);
    expect(await failing(2, 'account', 'set-password', '--account', accountId, '--password', 'short')).toMatchObject({ code: 'usage' });
    expect(await failing(1, 'account', 'verify', '--account', 'acct_NOPE')).toMatchObject({ code: 'account_not_found' });
  }, 90_000); // seven CLI processes, each loading TypeScript: a busy 2-core machine needs more than the default

  it('credits revoke is its own ledger entry and never overdraws', async () => {
    expect(accountId).not.toBe('');
    expect(await ok('credits', 'revoke', '--account', accountId, '--amount', '15')).toEqual({ balance: 25 });
    expect(await failing(1, 'credits', 'revoke', '--account', accountId, '--amount', '26')).toMatchObject({ code: 'insufficient_balance' });
    const ledger = await sql<{ amount: string; reason: string }[]>`select amount::text, reason from credit_ledger where account_id = ${accountId} order by id`;
    expect(ledger).toEqual([{ amount: '40', reason: 'opening grant' }, { amount: '-15', reason: 'revoke' }]);
  });

  it('usage sums the ledger per day and operation, from --since', async () => {
    expect(accountId).not.toBe('');
    // Charges as the service posts them (reason = the operation), one dated yesterday.
    await sql`insert into credit_ledger (account_id, entry_key, amount, balance_after, reason, created_at) values
      (${accountId}, 'req:a', -5, 20, 'search', now()), (${accountId}, 'req:b', -5, 15, 'search', now()),
      (${accountId}, 'req:c', -1, 14, 'price', now() - interval '1 day')`;
    const today = new Date().toISOString().slice(0, 10);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const all = (await ok('usage', '--account', accountId)) as { days: unknown[]; charged: number; granted: number };
    expect(all.days).toEqual(expect.arrayContaining([
      { day: yesterday, operation: 'price', entries: 1, credits: -1 },
      { day: today, operation: 'search', entries: 2, credits: -10 },
      { day: today, operation: 'revoke', entries: 1, credits: -15 },
    ]));
    // An operator's revoke is not a charge (issue 22 item 6): it is counted apart.
    expect(all).toMatchObject({ charged: 11, revoked: 15, granted: 40 });
    const fromToday = (await ok('usage', '--account', accountId, '--since', today)) as { days: { operation: string }[]; since: string };
    expect(fromToday.since).toBe(today);
    expect(fromToday.days.map((d) => d.operation)).not.toContain('price');
    expect(await failing(2, 'usage', '--account', accountId, '--since', 'last week')).toMatchObject({ code: 'usage' });
  });

  it('jobs list shows the account\'s jobs, newest first', async () => {
    expect(accountId).not.toBe('');
    expect(await ok('jobs', 'list', '--account', accountId)).toEqual({ accountId, jobs: [] });
    for (const [id, minutesAgo] of [['job_OLD', 10], ['job_NEW', 1]] as const) {
      await sql`insert into async_jobs (id, account_id, key_id, key_env, procedure, input, dedup_key, platforms, status, estimated_seconds, created_at, expires_at)
        values (${id}, ${accountId}, 'key_X', 'live', 'search', '{}', ${id}, '["airbnb"]', 'pending', 9, now() - make_interval(mins => ${minutesAgo}), now() + interval '1 day')`;
    }
    const out = (await ok('jobs', 'list', '--account', accountId)) as { jobs: { jobId: string; operation: string; status: string }[] };
    expect(out.jobs.map((j) => j.jobId)).toEqual(['job_NEW', 'job_OLD']);
    expect(out.jobs[0]).toMatchObject({ operation: 'search', status: 'pending', creditsCharged: 0 });
  });
});

describe('admin CLI usage errors: exit code 2, one JSON error with code "usage" on stderr, nothing on stdout', () => {
  const cases: { name: string; args: string[]; message: RegExp }[] = [
    { name: 'unknown command', args: ['account', 'delete', '--email', 'u@x.com'], message: /^unknown command "account delete"/ },
    { name: 'bad --env', args: ['key', 'create', '--account', 'acct_X', '--env', 'prod'], message: /^--env must be live or sandbox$/ },
    { name: 'bad --plan', args: ['account', 'create', '--email', 'badplan@x.com', '--plan', 'gold'], message: /^--plan must be one of/ },
    { name: 'missing --email', args: ['account', 'create', '--plan', 'pro'], message: /^--email is required/ },
    { name: 'option of another command', args: ['key', 'revoke', '--key', 'key_X', '--amount', '5'], message: /--amount/ },
    // A misspelt option is a usage error like any other (the CLI's header: "2 for usage").
    { name: 'unknown option', args: ['account', 'create', '--emial', 'typo@x.com'], message: /--emial/ },
  ];

  it.concurrent.each(cases)('$name', async ({ args, message }) => {
    const res = await cli(...args);
    expect(res.stdout).toBe('');
    const { error } = oneJsonLine(res.stderr) as { error: { code: string; message: string } };
    expect(error.code).toBe('usage');
    expect(error.message).toMatch(message);
    expect(res.code).toBe(2);
  });

  it('created nothing for the refused commands', async () => {
    const rows = await sql`select email from accounts where email in ('u@x.com', 'badplan@x.com', 'typo@x.com')`;
    expect(rows).toHaveLength(0);
    expect(await sql`select 1 from api_keys where account_id = 'acct_X'`).toHaveLength(0);
  });
});
