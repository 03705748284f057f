import { randomBytes, randomUUID, scrypt as scryptCb, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import { OperatorError } from '../../../domain/errors.js';
import { hashKey, isWellFormedKey, newApiKey } from '../../../domain/accounts/api-keys.js';
import type { KeyEnv, PlanCode } from '../../../domain/accounts/plans.js';
import type { IdGenerator } from '../../../domain/ports/system.js';
import type { Ledger } from '../../../domain/ports/billing.js';
import type { Db } from '../db.js';
import { accounts, apiKeys } from '../schema.js';

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

const UNIQUE_VIOLATION = '23505';
const FOREIGN_KEY_VIOLATION = '23503';

/** The driver's SQLSTATE, through drizzle's wrapper (its message carries the query and params). */
function sqlState(err: unknown): string | undefined {
  const e = err as { code?: string; cause?: { code?: string } };
  return e.cause?.code ?? e.code;
}

const accountNotFound = (accountId: string) => new OperatorError('account_not_found', `no account ${accountId}`, 'find it with `account show --email E`');

/** Account administration used by the CLI, the first embedded start and tests. */
export function createAdmin(db: Db, ledger: Ledger, ids: IdGenerator) {
  async function requireAccount(accountId: string): Promise<void> {
    const [account] = await db.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, accountId));
    if (!account) throw accountNotFound(accountId);
  }

  /**
   * Grants (amount > 0) or revokes (amount < 0) credits as one ledger entry of its own; a
   * revocation never takes the balance below 0.
   */
  async function adjustCredits(accountId: string, amount: number, reason: 'grant' | 'revoke'): Promise<{ balance: number }> {
    await requireAccount(accountId);
    const posted = await ledger.post({ accountId, entryKey: `${reason}:${randomUUID()}`, amount, reason });
    if (!posted) throw new OperatorError('insufficient_balance', `revoking ${-amount} credits would take the balance of ${accountId} below 0`, 'see the balance with `account show`');
    return { balance: posted.balance };
  }

  return {
    async createAccount(input: NewAccount): Promise<{ accountId: string }> {
      const accountId = ids.accountId();
      const email = input.email.trim().toLowerCase();
      try {
        await db.insert(accounts).values({
          id: accountId,
          email,
          emailVerified: input.verified,
          passwordHash: input.password ? await hashPassword(input.password) : null,
          plan: input.plan,
        });
      } catch (err) {
        if (sqlState(err) === UNIQUE_VIOLATION) throw new OperatorError('email_taken', `an account with e-mail ${email} exists`, 'see it with `account show --email E`');
        throw err;
      }
      if (input.credits > 0) await ledger.post({ accountId, entryKey: `grant:${accountId}:opening`, amount: input.credits, reason: 'opening grant' });
      return { accountId };
    },

    async createKey(accountId: string, env: KeyEnv): Promise<{ key: string; keyId: string; prefix: string }> {
      const { key, hash, prefix } = newApiKey(env, randomBytes(32));
      const keyId = ids.keyId();
      try {
        await db.insert(apiKeys).values({ id: keyId, accountId, keyHash: hash, prefix, env });
      } catch (err) {
        if (sqlState(err) === FOREIGN_KEY_VIOLATION) throw accountNotFound(accountId);
        throw err;
      }
      return { key, keyId, prefix };
    },

    /** Revokes by key id, or by the key itself (matched through its hash); false when no such key. */
    async revokeKey(keyIdOrKey: string): Promise<boolean> {
      const match = isWellFormedKey(keyIdOrKey) ? eq(apiKeys.keyHash, hashKey(keyIdOrKey)) : eq(apiKeys.id, keyIdOrKey);
      const rows = await db.update(apiKeys).set({ revokedAt: new Date() }).where(match).returning({ id: apiKeys.id });
      return rows.length > 0;
    },

    async grantCredits(accountId: string, amount: number): Promise<{ balance: number }> {
      return adjustCredits(accountId, amount, 'grant');
    },

    adjustCredits,

    /** Clears `email_unverified`: live calls are refused until the e-mail is verified. */
    async verifyAccount(accountId: string): Promise<{ accountId: string; emailVerified: true }> {
      const rows = await db.update(accounts).set({ emailVerified: true }).where(eq(accounts.id, accountId)).returning({ id: accounts.id });
      if (rows.length === 0) throw accountNotFound(accountId);
      return { accountId, emailVerified: true };
    },

    /** The password of the OAuth sign-in page (MCP clients); stored as an scrypt hash. */
    async setPassword(accountId: string, password: string): Promise<{ accountId: string; passwordSet: true }> {
      const rows = await db.update(accounts).set({ passwordHash: await hashPassword(password) }).where(eq(accounts.id, accountId)).returning({ id: accounts.id });
      if (rows.length === 0) throw accountNotFound(accountId);
      return { accountId, passwordSet: true };
    },

    async findAccountByEmail(email: string): Promise<{ accountId: string } | null> {
      const [row] = await db.select({ id: accounts.id }).from(accounts).where(eq(accounts.email, email.trim().toLowerCase()));
      return row ? { accountId: row.id } : null;
    },
  };
}
export type Admin = ReturnType<typeof createAdmin>;
