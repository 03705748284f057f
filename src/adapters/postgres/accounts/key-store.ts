import { and, eq, isNull, type SQL } from 'drizzle-orm';
import { isPlanCode } from '../../../domain/accounts/plans.js';
import type { KeyStore, Principal } from '../../../domain/ports/accounts.js';
import type { Db } from '../db.js';
import { accounts, apiKeys } from '../schema.js';

export function createPgKeyStore(db: Db): KeyStore {
  const find = async (where: SQL): Promise<Principal | null> => {
      const rows = await db
        .select({
          keyId: apiKeys.id,
          keyPrefix: apiKeys.prefix,
          env: apiKeys.env,
          accountId: accounts.id,
          plan: accounts.plan,
          subscriptionStatus: accounts.subscriptionStatus,
          emailVerified: accounts.emailVerified,
          balance: accounts.creditBalance,
          rateLimitOverride: accounts.rateLimitOverride,
        })
        .from(apiKeys)
        .innerJoin(accounts, eq(accounts.id, apiKeys.accountId))
        .where(where)
        .limit(1);
      const row = rows[0];
      if (!row) return null;
      return {
        ...row,
        env: row.env === 'live' ? 'live' : 'sandbox',
        plan: isPlanCode(row.plan) ? row.plan : 'free',
      };
  };
  return {
    findByHash: (keyHash) => find(and(eq(apiKeys.keyHash, keyHash), isNull(apiKeys.revokedAt))!),
    findById: (keyId) => find(eq(apiKeys.id, keyId)),
    findRecentById: (keyId) => find(eq(apiKeys.id, keyId)),
    async forAccount(accountId, via, env) {
      const [row] = await db.select().from(accounts).where(eq(accounts.id, accountId));
      if (!row) return null;
      return {
        accountId: row.id,
        keyId: via,
        keyPrefix: 'oauth',
        env,
        plan: isPlanCode(row.plan) ? row.plan : 'free',
        subscriptionStatus: row.subscriptionStatus,
        emailVerified: row.emailVerified,
        balance: row.creditBalance,
        rateLimitOverride: row.rateLimitOverride,
      };
    },
  };
}
