import { eq, sql } from 'drizzle-orm';
import type { Ledger, LedgerEntry } from '../../domain/service-ports.js';
import type { Db } from './db.js';
import { accounts, creditLedger } from './schema.js';

class Duplicate extends Error {
  constructor(readonly balance: number) {
    super('duplicate entry');
  }
}
class Refused extends Error {}

/**
 * design.md section 4: one transaction moves the balance (never below 0) and appends the ledger
 * row. The account row is locked first, so posts for one account are serialised and a retried
 * entry key is recognised as already posted, even when its first post emptied the balance.
 */
export function createPgLedger(db: Db): Ledger {
  return {
    async post(entry: LedgerEntry) {
      try {
        const balance = await db.transaction(async (tx) => {
          const [account] = await tx
            .select({ balance: accounts.creditBalance })
            .from(accounts)
            .where(eq(accounts.id, entry.accountId))
            .for('update');
          if (!account) throw new Refused();
          const [posted] = await tx.select({ id: creditLedger.id }).from(creditLedger).where(eq(creditLedger.entryKey, entry.entryKey));
          if (posted) throw new Duplicate(account.balance);
          const after = account.balance + entry.amount;
          if (after < 0) throw new Refused();
          await tx.update(accounts).set({ creditBalance: sql`${accounts.creditBalance} + ${entry.amount}` }).where(eq(accounts.id, entry.accountId));
          await tx.insert(creditLedger).values({ accountId: entry.accountId, entryKey: entry.entryKey, amount: entry.amount, balanceAfter: after, reason: entry.reason });
          return after;
        });
        return { balance, duplicate: false };
      } catch (err) {
        if (err instanceof Refused) return null;
        if (err instanceof Duplicate) return { balance: err.balance, duplicate: true };
        throw err;
      }
    },
  };
}
