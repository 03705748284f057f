import { and, desc, eq, gte, sql } from 'drizzle-orm';
import { OperatorError } from '../../../domain/errors.js';
import type { Db } from '../db.js';
import { accounts, apiKeys, asyncJobs, creditLedger } from '../schema.js';

export interface KeySummary {
  keyId: string;
  prefix: string;
  env: string;
  createdAt: string;
  revokedAt: string | null;
}

/** What an operator reads about an account (admin CLI); never a key or a password hash. */
export function createAdminQueries(db: Db) {
  async function listKeys(accountId: string): Promise<KeySummary[]> {
    const rows = await db.select().from(apiKeys).where(eq(apiKeys.accountId, accountId)).orderBy(apiKeys.createdAt, apiKeys.id);
    return rows.map((k) => ({ keyId: k.id, prefix: k.prefix, env: k.env, createdAt: k.createdAt.toISOString(), revokedAt: k.revokedAt?.toISOString() ?? null }));
  }

  async function requireAccount(accountId: string) {
    const [account] = await db.select().from(accounts).where(eq(accounts.id, accountId));
    if (!account) throw new OperatorError('account_not_found', `no account ${accountId}`, 'find it with `account show --email E`');
    return account;
  }

  return {
    /** By id, or by e-mail when `byEmail`. */
    async showAccount(ref: { accountId?: string; email?: string }) {
      let accountId = ref.accountId;
      if (!accountId && ref.email) {
        const [row] = await db.select({ id: accounts.id }).from(accounts).where(eq(accounts.email, ref.email.trim().toLowerCase()));
        if (!row) throw new OperatorError('account_not_found', `no account with e-mail ${ref.email}`);
        accountId = row.id;
      }
      const a = await requireAccount(accountId!);
      return {
        accountId: a.id,
        email: a.email,
        plan: a.plan,
        subscriptionStatus: a.subscriptionStatus,
        emailVerified: a.emailVerified,
        hasPassword: a.passwordHash !== null,
        balance: a.creditBalance,
        rateLimitOverride: a.rateLimitOverride,
        createdAt: a.createdAt.toISOString(),
        keys: await listKeys(a.id),
      };
    },

    async listKeys(accountId: string): Promise<{ accountId: string; keys: KeySummary[] }> {
      await requireAccount(accountId);
      return { accountId, keys: await listKeys(accountId) };
    },

    /**
     * Ledger sums per UTC day and operation (the entry's reason: `search`, `grant`, ...):
     * `credits` is signed, negative for what calls and jobs charged, positive for grants.
     */
    async usage(accountId: string, since: Date | null) {
      await requireAccount(accountId);
      const day = sql<string>`to_char(${creditLedger.createdAt} at time zone 'UTC', 'YYYY-MM-DD')`;
      const rows = await db
        .select({ day, operation: creditLedger.reason, entries: sql<number>`count(*)::int`, credits: sql<number>`sum(${creditLedger.amount})::bigint` })
        .from(creditLedger)
        .where(and(eq(creditLedger.accountId, accountId), since ? gte(creditLedger.createdAt, since) : undefined))
        .groupBy(day, creditLedger.reason)
        .orderBy(day, creditLedger.reason);
      const days = rows.map((r) => ({ day: r.day, operation: r.operation, entries: r.entries, credits: Number(r.credits) }));
      return {
        accountId,
        since: since ? since.toISOString().slice(0, 10) : null,
        days,
        // What calls and jobs cost; an operator's revoke is a debit but no charge, counted apart.
        charged: -days.filter((d) => d.credits < 0 && d.operation !== 'revoke').reduce((n, d) => n + d.credits, 0),
        revoked: -days.filter((d) => d.operation === 'revoke').reduce((n, d) => n + d.credits, 0),
        granted: days.filter((d) => d.credits > 0).reduce((n, d) => n + d.credits, 0),
      };
    },

    /** The account's async jobs, newest first (expired ones are deleted by the worker). */
    async listJobs(accountId: string, limit: number) {
      await requireAccount(accountId);
      const rows = await db.select().from(asyncJobs).where(eq(asyncJobs.accountId, accountId)).orderBy(desc(asyncJobs.createdAt), desc(asyncJobs.id)).limit(limit);
      return {
        accountId,
        jobs: rows.map((j) => ({
          jobId: j.id,
          operation: j.procedure,
          status: j.status,
          platforms: j.platforms,
          creditsCharged: j.creditsCharged,
          createdAt: j.createdAt.toISOString(),
          finishedAt: j.finishedAt?.toISOString() ?? null,
          expiresAt: j.expiresAt.toISOString(),
        })),
      };
    },
  };
}
export type AdminQueries = ReturnType<typeof createAdminQueries>;
