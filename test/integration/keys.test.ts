import postgres from 'postgres';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Database } from '../../src/adapters/postgres/db.js';
import { createAdmin, hashPassword, verifyPassword, type Admin } from '../../src/adapters/postgres/accounts/admin.js';
import { createPgKeyStore } from '../../src/adapters/postgres/accounts/key-store.js';
import { createPgLedger } from '../../src/adapters/postgres/billing/ledger.js';
import { createIds } from '../../src/adapters/system/ids.js';
import { hashKey } from '../../src/domain/accounts/api-keys.js';
import type { KeyStore } from '../../src/domain/ports/accounts.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';

const ULID = '[0-9A-HJKMNP-TV-Z]{26}';
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

let testDb: TestDatabase;
let database: Database;
/** A direct connection for assertions (postgres.js tagged templates). */
let sql: postgres.Sql;
let admin: Admin;
let keys: KeyStore;

beforeAll(async () => {
  testDb = await createTestDatabase();
  database = connect(testDb.url, 4);
  sql = postgres(testDb.url, { max: 2, onnotice: () => {} });
  admin = createAdmin(database.db, createPgLedger(database.db), createIds());
  keys = createPgKeyStore(database.db);
});

afterAll(async () => {
  await sql?.end();
  await database?.close();
  await testDb?.drop();
});

/** Every row of every table in the public schema, each as its text form. */
async function everyPublicRowAsText(): Promise<{ table: string; text: string }[]> {
  const tables = await sql<{ table_name: string }[]>`
    select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`;
  const out: { table: string; text: string }[] = [];
  for (const { table_name } of tables) {
    const quoted = `"${table_name.replaceAll('"', '""')}"`;
    const rows = await sql.unsafe<{ t: string }[]>(`select t::text as t from public.${quoted} t`);
    for (const r of rows) out.push({ table: table_name, text: r.t });
  }
  return out;
}

describe('createAdmin.createKey: only the hash is stored', () => {
  it('keeps the plaintext key out of every table; stores its SHA-256 hex and a 15-character prefix', async () => {
    const { accountId } = await admin.createAccount({ email: 'keys-plain@example.com', plan: 'pro', credits: 50, verified: true, password: 'hunter2-secret' });
    const live = await admin.createKey(accountId, 'live');
    const sandbox = await admin.createKey(accountId, 'sandbox');

    expect(live.key).toMatch(/^svc_live_[0-9A-Za-z]{43}$/);
    expect(sandbox.key).toMatch(/^svc_test_[0-9A-Za-z]{43}$/);
    expect(live.keyId).toMatch(new RegExp(`^key_${ULID}$`));
    expect(live.prefix).toBe(live.key.slice(0, 15));
    expect(sandbox.prefix).toBe(sandbox.key.slice(0, 15));

    const rows = await sql<{ id: string; account_id: string; key_hash: string; prefix: string; env: string; revoked_at: unknown }[]>`
      select id, account_id, key_hash, prefix, env, revoked_at from api_keys where account_id = ${accountId} order by env`;
    expect(rows).toEqual([
      { id: live.keyId, account_id: accountId, key_hash: sha256(live.key), prefix: live.key.slice(0, 15), env: 'live', revoked_at: null },
      { id: sandbox.keyId, account_id: accountId, key_hash: sha256(sandbox.key), prefix: sandbox.key.slice(0, 15), env: 'sandbox', revoked_at: null },
    ]);
    for (const r of rows) expect(r.key_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hashKey(live.key)).toBe(sha256(live.key));

    // Neither the key nor its secret part (after the 9-character scheme) is anywhere in the database.
    const everything = await everyPublicRowAsText();
    expect(new Set(everything.map((r) => r.table))).toEqual(new Set(['accounts', 'api_keys', 'credit_ledger']));
    expect(everything.length).toBeGreaterThanOrEqual(4);
    for (const key of [live.key, sandbox.key]) {
      const secret = key.slice(9);
      const leaks = everything.filter((r) => r.text.includes(key) || r.text.includes(secret) || r.text.includes(key.slice(0, 25)));
      expect(leaks).toEqual([]);
    }
    // Nor is the password.
    expect(everything.filter((r) => r.text.includes('hunter2-secret'))).toEqual([]);
  });

  it('gives each key a fresh random secret and a unique hash', async () => {
    const { accountId } = await admin.createAccount({ email: 'keys-many@example.com', plan: 'free', credits: 0, verified: true, password: null });
    const created = await Promise.all(Array.from({ length: 20 }, () => admin.createKey(accountId, 'live')));
    expect(new Set(created.map((c) => c.key)).size).toBe(20);
    expect(new Set(created.map((c) => c.keyId)).size).toBe(20);
    const [row] = await sql<{ count: string }[]>`
      select count(distinct key_hash)::text as count from api_keys where account_id = ${accountId}`;
    expect(row?.count).toBe('20');
  });

  it('refuses a key for an unknown account (foreign key)', async () => {
    await expect(admin.createKey('acct_UNKNOWN', 'live')).rejects.toThrow();
    expect(await sql`select 1 from api_keys where account_id = 'acct_UNKNOWN'`).toHaveLength(0);
  });
});

describe('createPgKeyStore.findByHash', () => {
  it('returns the principal of an active live key', async () => {
    const { accountId } = await admin.createAccount({ email: 'Principal@Example.com', plan: 'scale', credits: 321, verified: true, password: null });
    const { key, keyId } = await admin.createKey(accountId, 'live');
    expect(await keys.findByHash(hashKey(key))).toEqual({
      keyId,
      keyPrefix: key.slice(0, 15),
      env: 'live',
      accountId,
      plan: 'scale',
      subscriptionStatus: 'active',
      emailVerified: true,
      balance: 321,
      rateLimitOverride: null,
    });
  });

  it('returns a sandbox principal of an unverified account, with the balance read at call time', async () => {
    const { accountId } = await admin.createAccount({ email: 'unverified@example.com', plan: 'starter', credits: 10, verified: false, password: null });
    const { key, keyId } = await admin.createKey(accountId, 'sandbox');
    const before = await keys.findByHash(hashKey(key));
    expect(before).toMatchObject({ keyId, accountId, env: 'sandbox', plan: 'starter', emailVerified: false, balance: 10 });
    await admin.grantCredits(accountId, 15);
    expect((await keys.findByHash(hashKey(key)))?.balance).toBe(25);
  });

  it('returns null for an unknown hash, and does not match on the plaintext key', async () => {
    const { accountId } = await admin.createAccount({ email: 'unknown-hash@example.com', plan: 'free', credits: 0, verified: true, password: null });
    const { key } = await admin.createKey(accountId, 'live');
    expect(await keys.findByHash(sha256('svc_live_' + 'A'.repeat(43)))).toBeNull();
    expect(await keys.findByHash(key)).toBeNull();
    expect(await keys.findByHash('')).toBeNull();
  });

  it('returns null for a revoked key, without affecting another key of the same account', async () => {
    const { accountId } = await admin.createAccount({ email: 'revoke@example.com', plan: 'pro', credits: 0, verified: true, password: null });
    const doomed = await admin.createKey(accountId, 'live');
    const kept = await admin.createKey(accountId, 'live');
    expect(await keys.findByHash(hashKey(doomed.key))).not.toBeNull();

    expect(await admin.revokeKey(doomed.keyId)).toBe(true);
    expect(await keys.findByHash(hashKey(doomed.key))).toBeNull();
    expect((await keys.findByHash(hashKey(kept.key)))?.keyId).toBe(kept.keyId);

    const [row] = await sql<{ revoked_seconds_ago: number | null }[]>`
      select extract(epoch from now() - revoked_at)::float8 as revoked_seconds_ago from api_keys where id = ${doomed.keyId}`;
    expect(row?.revoked_seconds_ago).toBeTypeOf('number');
    expect(row!.revoked_seconds_ago!).toBeGreaterThanOrEqual(0);
    expect(row!.revoked_seconds_ago!).toBeLessThan(60);
    expect(await admin.revokeKey('key_DOES_NOT_EXIST')).toBe(false);
  });
});

describe('passwords', () => {
  it('stores a salted scrypt hash that verifies only the right password', async () => {
    const password = 'correct horse battery staple';
    const { accountId } = await admin.createAccount({ email: 'pw@example.com', plan: 'free', credits: 0, verified: true, password });
    const { accountId: other } = await admin.createAccount({ email: 'pw2@example.com', plan: 'free', credits: 0, verified: true, password });
    const rows = await sql<{ id: string; password_hash: string | null }[]>`
      select id, password_hash from accounts where id in (${accountId}, ${other}) order by id`;
    expect(rows.map((r) => r.id)).toEqual([accountId, other]);
    const [stored, storedOther] = rows.map((r) => r.password_hash);

    // scrypt$<16-byte salt, base64url>$<32-byte hash, base64url>
    expect(stored).toMatch(/^scrypt\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(stored).not.toContain(password);
    // Salted: the same password gives different stored values.
    expect(storedOther).not.toBe(stored);

    expect(await verifyPassword(password, stored!)).toBe(true);
    expect(await verifyPassword(password, storedOther!)).toBe(true);
    expect(await verifyPassword('correct horse battery stapl', stored!)).toBe(false);
    expect(await verifyPassword('', stored!)).toBe(false);
    expect(await verifyPassword(password, 'plain-text-password')).toBe(false);
    expect(await verifyPassword(password, `bcrypt$x$y`)).toBe(false);
  });

  it('stores no password hash for an account created without a password', async () => {
    const { accountId } = await admin.createAccount({ email: 'nopw@example.com', plan: 'free', credits: 0, verified: true, password: null });
    const [row] = await sql<{ password_hash: string | null; email: string }[]>`select password_hash, email from accounts where id = ${accountId}`;
    expect(row).toEqual({ password_hash: null, email: 'nopw@example.com' });
  });

  it('hashPassword round-trips with verifyPassword', async () => {
    const h = await hashPassword('s3cret!');
    expect(await verifyPassword('s3cret!', h)).toBe(true);
    expect(await verifyPassword('S3cret!', h)).toBe(false);
  });
});
