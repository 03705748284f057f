import { createHash, randomBytes } from 'node:crypto';
import { and, desc, eq, gt, sql } from 'drizzle-orm';
import type { Db } from '../db.js';
import { createConsoleUsage } from './console-usage.js';
import { accounts, apiKeys, asyncJobs, consoleSessions } from '../schema.js';

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

export interface ConsoleSession {
  accountId: string;
  csrf: string;
}

/**
 * What the developer console reads and writes, always for one account: sessions (only the
 * cookie's hash is stored), the account overview, keys, usage and billed requests from the ledger.
 */
export function createConsoleStore(db: Db) {
  return {
    usage: createConsoleUsage(db),

    async credentials(email: string): Promise<{ accountId: string; passwordHash: string | null } | null> {
      const [row] = await db.select({ id: accounts.id, passwordHash: accounts.passwordHash }).from(accounts).where(eq(accounts.email, email.trim().toLowerCase()));
      return row ? { accountId: row.id, passwordHash: row.passwordHash } : null;
    },

    /** A new session: the cookie value and the CSRF token go to the browser, the cookie's hash to the table. */
    async openSession(accountId: string, expiresAt: Date): Promise<{ token: string; csrf: string }> {
      const token = randomBytes(32).toString('base64url');
      const csrf = randomBytes(24).toString('base64url');
      await db.insert(consoleSessions).values({ tokenHash: sha256(token), accountId, csrf, expiresAt });
      return { token, csrf };
    },

    async session(token: string, now: Date): Promise<ConsoleSession | null> {
      const [row] = await db
        .select({ accountId: consoleSessions.accountId, csrf: consoleSessions.csrf })
        .from(consoleSessions)
        .where(and(eq(consoleSessions.tokenHash, sha256(token)), gt(consoleSessions.expiresAt, now)));
      return row ?? null;
    },

    /**
     * Deletes up to `limit` expired sessions (oldest first, by the expires_at index). Run at each
     * sign-in: the table cannot grow faster than sign-ins, and one sweep never holds many rows.
     */
    async sweepExpired(now: Date, limit = 500): Promise<number> {
      const { rowCount } = await db.execute(sql`
        delete from console_sessions where token_hash in (
          select token_hash from console_sessions where expires_at <= ${now} order by expires_at limit ${limit})`);
      return rowCount ?? 0;
    },

    async closeSession(token: string): Promise<void> {
      await db.delete(consoleSessions).where(eq(consoleSessions.tokenHash, sha256(token)));
    },

    async overview(accountId: string) {
      const [row] = await db.select({ email: accounts.email, plan: accounts.plan, balance: accounts.creditBalance, emailVerified: accounts.emailVerified, rateLimitOverride: accounts.rateLimitOverride }).from(accounts).where(eq(accounts.id, accountId));
      return row ?? null;
    },

    async keys(accountId: string) {
      return db
        .select({ keyId: apiKeys.id, prefix: apiKeys.prefix, env: apiKeys.env, createdAt: apiKeys.createdAt, revokedAt: apiKeys.revokedAt, lastUsedAt: apiKeys.lastUsedAt })
        .from(apiKeys)
        .where(eq(apiKeys.accountId, accountId))
        .orderBy(desc(apiKeys.createdAt));
    },

    /** True when the key belongs to the account: a session may only revoke its own keys. */
    async ownsKey(accountId: string, keyId: string): Promise<boolean> {
      const [row] = await db.select({ id: apiKeys.id }).from(apiKeys).where(and(eq(apiKeys.id, keyId), eq(apiKeys.accountId, accountId)));
      return Boolean(row);
    },

    async jobs(accountId: string, limit: number) {
      const rows = await db
        .select({ jobId: asyncJobs.id, procedure: asyncJobs.procedure, status: asyncJobs.status, creditsCharged: asyncJobs.creditsCharged, createdAt: asyncJobs.createdAt, finishedAt: asyncJobs.finishedAt })
        .from(asyncJobs)
        .where(eq(asyncJobs.accountId, accountId))
        .orderBy(desc(asyncJobs.createdAt))
        .limit(limit);
      return rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString(), finishedAt: r.finishedAt?.toISOString() ?? null }));
    },
  };
}
export type ConsoleStore = ReturnType<typeof createConsoleStore>;
