import { and, eq, gte, sql } from 'drizzle-orm';
import type { Ledger, LedgerEntry } from '../../domain/service-ports.js';
import type { Db } from './db.js';
import { accounts, creditLedger } from './schema.js';

class Duplicate extends Error {}
class Overdraw extends Error {}

/**
 * design.md section 4: one transaction moves the balance (guarded, never below 0) and appends the
 * ledger row whose unique entry key makes a retried post a no-op.
 */
export function createPgLedger(db: Db): Ledger {
  return {
    async post(entry: LedgerEntry) {
      try {
        const balance = await db.transaction(async (tx) => {
          const moved = await tx
            .update(accounts)
            .set({ creditBalance: sql`${accounts.creditBalance} + ${entry.amount}` })
            .where(and(eq(accounts.id, entry.accountId), gte(sql`${accounts.creditBalance} + ${entry.amount}`, 0)))
            .returning({ balance: accounts.creditBalance });
          const after = moved[0]?.balance;
          if (after === undefined) throw new Overdraw();
          const inserted = await tx
            .insert(creditLedger)
            .values({ accountId: entry.accountId, entryKey: entry.entryKey, amount: entry.amount, balanceAfter: after, reason: entry.reason })
            .onConflictDoNothing({ target: creditLedger.entryKey })
            .returning({ id: creditLedger.id });
          if (inserted.length === 0) throw new Duplicate();
          return after;
        });
        return { balance, duplicate: false };
      } catch (err) {
        if (err instanceof Overdraw) return null;
        if (err instanceof Duplicate) {
          const [row] = await db.select({ balance: accounts.creditBalance }).from(accounts).where(eq(accounts.id, entry.accountId));
          return { balance: row?.balance ?? 0, duplicate: true };
        }
        throw err;
      }
    },
  };
}
