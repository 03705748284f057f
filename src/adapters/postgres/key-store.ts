import { and, eq, isNull } from 'drizzle-orm';
import { isPlanCode } from '../../domain/plans.js';
import type { KeyStore, Principal } from '../../domain/service-ports.js';
import type { Db } from './db.js';
import { accounts, apiKeys } from './schema.js';

export function createPgKeyStore(db: Db): KeyStore {
  return {
    async findByHash(keyHash): Promise<Principal | null> {
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
        .where(and(eq(apiKeys.keyHash, keyHash), isNull(apiKeys.revokedAt)))
        .limit(1);
      const row = rows[0];
      if (!row) return null;
      return {
        ...row,
        env: row.env === 'live' ? 'live' : 'sandbox',
        plan: isPlanCode(row.plan) ? row.plan : 'free',
      };
    },
  };
}
