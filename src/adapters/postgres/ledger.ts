import { eq, sql } from 'drizzle-orm';
import type { Ledger, LedgerEntry } from '../../domain/service-ports.js';
import type { Db } from './db.js';
import { accounts, creditLedger } from './schema.js';

export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type PostResult = { balance: number; duplicate: boolean } | null;

/**
 * Posts one entry inside the caller's transaction (design.md section 4). The account row is
 * locked first, so posts for one account are serialised; an entry key already in the ledger is
 * reported as a duplicate (even when its first post emptied the balance); an entry that would take
 * the balance below 0, or names no account, returns null. Nothing is written unless it posts.
 */
export async function postEntry(tx: Tx, entry: LedgerEntry): Promise<PostResult> {
  const [account] = await tx.select({ balance: accounts.creditBalance }).from(accounts).where(eq(accounts.id, entry.accountId)).for('update');
  if (!account) return null;
  const [posted] = await tx.select({ id: creditLedger.id }).from(creditLedger).where(eq(creditLedger.entryKey, entry.entryKey));
  if (posted) return { balance: account.balance, duplicate: true };
  const after = account.balance + entry.amount;
  if (after < 0) return null;
  await tx.update(accounts).set({ creditBalance: sql`${accounts.creditBalance} + ${entry.amount}` }).where(eq(accounts.id, entry.accountId));
  await tx.insert(creditLedger).values({ accountId: entry.accountId, entryKey: entry.entryKey, amount: entry.amount, balanceAfter: after, reason: entry.reason });
  return { balance: after, duplicate: false };
}

export function createPgLedger(db: Db): Ledger {
  return { post: (entry) => db.transaction((tx) => postEntry(tx, entry)) };
}
