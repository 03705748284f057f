import { randomBytes, randomUUID, scrypt as scryptCb, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import { hashKey, isWellFormedKey, newApiKey } from '../../domain/api-keys.js';
import type { KeyEnv, PlanCode } from '../../domain/plans.js';
import type { IdGenerator, Ledger } from '../../domain/service-ports.js';
import type { Db } from './db.js';
import { accounts, apiKeys } from './schema.js';

const scrypt = promisify(scryptCb) as (pw: string, salt: Buffer, len: number) => Promise<Buffer>;

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scrypt(password, salt, 32);
  return `scrypt$${salt.toString('base64url')}$${hash.toString('base64url')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await scrypt(password, Buffer.from(salt, 'base64url'), expected.length);
  return timingSafeEqual(expected, actual);
}

export interface NewAccount {
  email: string;
  plan: PlanCode;
  credits: number;
  verified: boolean;
  password: string | null;
}

/** Account administration used by the CLI, the first embedded start and tests. */
export function createAdmin(db: Db, ledger: Ledger, ids: IdGenerator) {
  return {
    async createAccount(input: NewAccount): Promise<{ accountId: string }> {
      const accountId = ids.accountId();
      await db.insert(accounts).values({
        id: accountId,
        email: input.email.trim().toLowerCase(),
        emailVerified: input.verified,
        passwordHash: input.password ? await hashPassword(input.password) : null,
        plan: input.plan,
      });
      if (input.credits > 0) await ledger.post({ accountId, entryKey: `grant:${accountId}:opening`, amount: input.credits, reason: 'opening grant' });
      return { accountId };
    },

    async createKey(accountId: string, env: KeyEnv): Promise<{ key: string; keyId: string; prefix: string }> {
      const { key, hash, prefix } = newApiKey(env, randomBytes(32));
      const keyId = ids.keyId();
      await db.insert(apiKeys).values({ id: keyId, accountId, keyHash: hash, prefix, env });
      return { key, keyId, prefix };
    },

    /** Revokes by key id, or by the key itself (matched through its hash). */
    async revokeKey(keyIdOrKey: string): Promise<boolean> {
      const match = isWellFormedKey(keyIdOrKey) ? eq(apiKeys.keyHash, hashKey(keyIdOrKey)) : eq(apiKeys.id, keyIdOrKey);
      const rows = await db.update(apiKeys).set({ revokedAt: new Date() }).where(match).returning({ id: apiKeys.id });
      return rows.length > 0;
    },

    async grantCredits(accountId: string, amount: number): Promise<{ balance: number }> {
      const [account] = await db.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, accountId));
      if (!account) throw new Error(`account ${accountId} not found`);
      const posted = await ledger.post({ accountId, entryKey: `grant:${randomUUID()}`, amount, reason: 'grant' });
      if (!posted) throw new Error(`a grant of ${amount} would take the balance below 0`);
      return { balance: posted.balance };
    },

    async findAccountByEmail(email: string): Promise<{ accountId: string } | null> {
      const [row] = await db.select({ id: accounts.id }).from(accounts).where(eq(accounts.email, email.trim().toLowerCase()));
      return row ? { accountId: row.id } : null;
    },
  };
}
export type Admin = ReturnType<typeof createAdmin>;
