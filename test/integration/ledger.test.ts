import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Database } from '../../src/adapters/postgres/db.js';
import { createAdmin, type Admin } from '../../src/adapters/postgres/accounts/admin.js';
import { createPgLedger } from '../../src/adapters/postgres/billing/ledger.js';
import { createIds } from '../../src/adapters/system/ids.js';
import type { Ledger } from '../../src/domain/ports/billing.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';

let testDb: TestDatabase;
let database: Database;
/** A direct connection for assertions (postgres.js tagged templates). */
let sql: postgres.Sql;
let ledger: Ledger;
let admin: Admin;
let n = 0;

beforeAll(async () => {
  testDb = await createTestDatabase();
  // More connections than the default so that the concurrent posts really contend in PostgreSQL.
  database = connect(testDb.url, 20);
  sql = postgres(testDb.url, { max: 2, onnotice: () => {} });
  ledger = createPgLedger(database.db);
  admin = createAdmin(database.db, ledger, createIds());
});

afterAll(async () => {
  await sql?.end();
  await database?.close();
  await testDb?.drop();
});

async function newAccount(credits: number): Promise<string> {
  const { accountId } = await admin.createAccount({
    email: `ledger${++n}@example.com`,
    plan: 'starter',
    credits,
    verified: true,
    password: null,
  });
  return accountId;
}

async function balanceOf(accountId: string): Promise<number> {
  const rows = await sql<{ credit_balance: string }[]>`select credit_balance from accounts where id = ${accountId}`;
  expect(rows).toHaveLength(1);
  return Number(rows[0]!.credit_balance);
}

interface LedgerRow {
  id: number;
  entryKey: string;
  amount: number;
  balanceAfter: number;
  reason: string;
}

async function rowsOf(accountId: string): Promise<LedgerRow[]> {
  const rows = await sql<{ id: string; entry_key: string; amount: string; balance_after: string; reason: string }[]>`
    select id, entry_key, amount, balance_after, reason from credit_ledger where account_id = ${accountId} order by id`;
  return rows.map((r) => ({ id: Number(r.id), entryKey: r.entry_key, amount: Number(r.amount), balanceAfter: Number(r.balance_after), reason: r.reason }));
}

/** The ledger explains the balance: each row's balance_after is the previous one plus its amount. */
function expectChained(rows: LedgerRow[], finalBalance: number): void {
  let running = 0;
  for (const row of rows) {
    running += row.amount;
    expect(row.balanceAfter).toBe(running);
    expect(row.balanceAfter).toBeGreaterThanOrEqual(0);
  }
  expect(running).toBe(finalBalance);
}

describe('createAdmin.createAccount opening grant', () => {
  it('starts the balance at the opening credits with one ledger row', async () => {
    const accountId = await newAccount(120);
    expect(accountId).toMatch(/^acct_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(await balanceOf(accountId)).toBe(120);
    const rows = await rowsOf(accountId);
    expect(rows.map(({ entryKey, amount, balanceAfter, reason }) => ({ entryKey, amount, balanceAfter, reason }))).toEqual([
      { entryKey: `grant:${accountId}:opening`, amount: 120, balanceAfter: 120, reason: 'opening grant' },
    ]);
  });

  it('writes no ledger row for an account opened with 0 credits', async () => {
    const accountId = await newAccount(0);
    expect(await balanceOf(accountId)).toBe(0);
    expect(await rowsOf(accountId)).toEqual([]);
  });
});

describe('createPgLedger.post: concurrent debits', () => {
  it('lets exactly 24 of 50 concurrent debits of 5 through on a balance of 120, never below 0', async () => {
    const accountId = await newAccount(120);
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => ledger.post({ accountId, entryKey: `req:concurrent-${accountId}-${i}`, amount: -5, reason: 'search' })),
    );

    const succeeded = results.filter((r) => r !== null);
    const refused = results.filter((r) => r === null);
    expect(succeeded).toHaveLength(24);
    expect(refused).toHaveLength(26);
    for (const r of succeeded) expect(r.duplicate).toBe(false);
    // Every successful debit saw a distinct balance: 115, 110, ..., 0.
    expect(succeeded.map((r) => r.balance).sort((a, b) => a - b)).toEqual(Array.from({ length: 24 }, (_, i) => i * 5));

    expect(await balanceOf(accountId)).toBe(0);

    const rows = await rowsOf(accountId);
    const debits = rows.filter((r) => r.entryKey.startsWith('req:'));
    expect(debits).toHaveLength(24);
    expect(debits.every((r) => r.amount === -5)).toBe(true);
    // The debit rows explain the balance change exactly (120 -> 0).
    expect(debits.reduce((s, r) => s + r.amount, 0)).toBe(0 - 120);
    // All rows (opening grant included) sum to the balance, and the chain never dips below 0.
    expect(rows.reduce((s, r) => s + r.amount, 0)).toBe(0);
    expectChained(rows, 0);
    expect(Math.min(...rows.map((r) => r.balanceAfter))).toBe(0);
    // Entry keys are unique.
    expect(new Set(rows.map((r) => r.entryKey)).size).toBe(rows.length);
  });

  it('refuses a debit larger than the balance and leaves no ledger row', async () => {
    const accountId = await newAccount(4);
    expect(await ledger.post({ accountId, entryKey: `req:too-much-${accountId}`, amount: -5, reason: 'search' })).toBeNull();
    expect(await balanceOf(accountId)).toBe(4);
    expect(await rowsOf(accountId)).toHaveLength(1);
    // Exactly the balance is allowed, down to 0.
    expect(await ledger.post({ accountId, entryKey: `req:exact-${accountId}`, amount: -4, reason: 'search' })).toEqual({ balance: 0, duplicate: false });
    expect(await balanceOf(accountId)).toBe(0);
  });

  it('returns null for an unknown account and writes nothing', async () => {
    expect(await ledger.post({ accountId: 'acct_DOES_NOT_EXIST', entryKey: 'req:ghost', amount: 10, reason: 'grant' })).toBeNull();
    const rows = await sql`select 1 from credit_ledger where entry_key = 'req:ghost'`;
    expect(rows).toHaveLength(0);
  });
});

describe('createPgLedger.post: idempotency by entry key', () => {
  it('charges once when the same entry key is posted twice in a row', async () => {
    const accountId = await newAccount(100);
    const entry = { accountId, entryKey: `req:retry-${accountId}`, amount: -7, reason: 'search' };
    expect(await ledger.post(entry)).toEqual({ balance: 93, duplicate: false });
    expect(await ledger.post(entry)).toEqual({ balance: 93, duplicate: true });
    expect(await balanceOf(accountId)).toBe(93);
    const rows = await rowsOf(accountId);
    expect(rows.filter((r) => r.entryKey === entry.entryKey)).toHaveLength(1);
    expectChained(rows, 93);
  });

  it('charges once when the same entry key is posted concurrently', async () => {
    const accountId = await newAccount(100);
    // Ten distinct keys, each posted five times at once.
    const posts = Array.from({ length: 10 }, (_, k) =>
      Array.from({ length: 5 }, () => ledger.post({ accountId, entryKey: `req:race-${accountId}-${k}`, amount: -3, reason: 'search' })),
    ).flat();
    const results = await Promise.all(posts);
    expect(results.every((r) => r !== null)).toBe(true);
    const firsts = results.filter((r) => r !== null && !r.duplicate);
    const dups = results.filter((r) => r !== null && r.duplicate);
    expect(firsts).toHaveLength(10);
    expect(dups).toHaveLength(40);
    expect(await balanceOf(accountId)).toBe(70);
    const rows = await rowsOf(accountId);
    expect(rows).toHaveLength(11);
    expect(new Set(rows.map((r) => r.entryKey)).size).toBe(11);
    expectChained(rows, 70);
  });

  it('charges once for two concurrent posts of one grant key', async () => {
    const accountId = await newAccount(0);
    const entry = { accountId, entryKey: `grant:pair-${accountId}`, amount: 40, reason: 'grant' };
    const [a, b] = await Promise.all([ledger.post(entry), ledger.post(entry)]);
    expect([a?.duplicate, b?.duplicate].sort()).toEqual([false, true]);
    expect(a?.balance).toBe(40);
    expect(b?.balance).toBe(40);
    expect(await balanceOf(accountId)).toBe(40);
    expect(await rowsOf(accountId)).toHaveLength(1);
  });

  // A retry of a debit that was already applied must be reported as a duplicate even when the
  // balance left is now too small to pay for it a second time (it is not a second charge).
  it('reports a retried debit that emptied the balance as a duplicate, not as an overdraw', async () => {
    const accountId = await newAccount(5);
    const entry = { accountId, entryKey: `req:last-credits-${accountId}`, amount: -5, reason: 'search' };
    expect(await ledger.post(entry)).toEqual({ balance: 0, duplicate: false });
    expect(await ledger.post(entry)).toEqual({ balance: 0, duplicate: true });
    expect(await balanceOf(accountId)).toBe(0);
    expect(await rowsOf(accountId)).toHaveLength(2);
  });
});

describe('credit_ledger is append-only and the balance has a floor', () => {
  it('refuses UPDATE of a ledger row', async () => {
    const accountId = await newAccount(10);
    await expect(sql`update credit_ledger set amount = 1000 where account_id = ${accountId}`).rejects.toThrow(/credit_ledger is append-only/);
    const rows = await rowsOf(accountId);
    expect(rows.map((r) => r.amount)).toEqual([10]);
  });

  it('refuses DELETE of a ledger row', async () => {
    const accountId = await newAccount(10);
    await expect(sql`delete from credit_ledger where account_id = ${accountId}`).rejects.toThrow(/credit_ledger is append-only/);
    expect(await rowsOf(accountId)).toHaveLength(1);
  });

  it('refuses TRUNCATE, which row triggers do not see', async () => {
    await expect(sql`truncate credit_ledger`).rejects.toThrow(/credit_ledger is append-only/);
  });

  it('has the trigger installed for UPDATE and DELETE', async () => {
    const rows = await sql<{ tgname: string; tgtype: number }[]>`
      select tgname, tgtype from pg_trigger where tgrelid = 'credit_ledger'::regclass and not tgisinternal order by tgname`;
    expect(rows.map((r) => r.tgname)).toEqual(['credit_ledger_append_only', 'credit_ledger_no_truncate']);
    const type = rows[0]!.tgtype;
    // pg_trigger.tgtype bits: 1 row, 2 before, 4 insert, 8 delete, 16 update.
    expect(type & 1).toBe(1);
    expect(type & 2).toBe(2);
    expect(type & 8).toBe(8);
    expect(type & 16).toBe(16);
    expect(type & 4).toBe(0);
  });

  it('refuses a negative accounts.credit_balance through its CHECK constraint', async () => {
    const accountId = await newAccount(3);
    const attempt = sql`update accounts set credit_balance = -1 where id = ${accountId}`;
    await expect(attempt).rejects.toMatchObject({ code: '23514', constraint_name: 'credit_balance_not_negative' });
    expect(await balanceOf(accountId)).toBe(3);
    const [def] = await sql<{ def: string }[]>`
      select pg_get_constraintdef(oid) as def from pg_constraint
      where conrelid = 'accounts'::regclass and conname = 'credit_balance_not_negative'`;
    expect(def?.def).toBe('CHECK ((credit_balance >= 0))');
  });
});

describe('createAdmin.grantCredits', () => {
  it('increases the balance and appends a ledger row with balance_after', async () => {
    const accountId = await newAccount(30);
    expect(await admin.grantCredits(accountId, 70)).toEqual({ balance: 100 });
    expect(await admin.grantCredits(accountId, 25)).toEqual({ balance: 125 });
    expect(await balanceOf(accountId)).toBe(125);
    const rows = await rowsOf(accountId);
    expect(rows.map(({ amount, balanceAfter, reason }) => ({ amount, balanceAfter, reason }))).toEqual([
      { amount: 30, balanceAfter: 30, reason: 'opening grant' },
      { amount: 70, balanceAfter: 100, reason: 'grant' },
      { amount: 25, balanceAfter: 125, reason: 'grant' },
    ]);
    // Each grant gets its own entry key.
    expect(rows[1]!.entryKey).toMatch(/^grant:[0-9a-f-]{36}$/);
    expect(rows[2]!.entryKey).not.toBe(rows[1]!.entryKey);
    expectChained(rows, 125);
  });

  it('throws for an unknown account and writes nothing', async () => {
    await expect(admin.grantCredits('acct_NOPE', 10)).rejects.toMatchObject({ code: 'account_not_found', message: 'no account acct_NOPE' });
    expect(await sql`select 1 from credit_ledger where account_id = 'acct_NOPE'`).toHaveLength(0);
  });
});
