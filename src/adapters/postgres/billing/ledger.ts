import { eq, sql, type SQL } from 'drizzle-orm';
import type { Ledger, LedgerEntry } from '../../../domain/ports/billing.js';
import type { Db } from '../db.js';
import { accounts, creditHolds } from '../schema.js';

export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type PostResult = { balance: number; duplicate: boolean } | null;

const UNIQUE_VIOLATION = '23505';

/**
 * Posts one entry (design.md section 4) in ONE statement, so a billed call pays one round trip and
 * holds the account's row lock only while the statement runs: the guarded update moves the balance
 * (never below 0) and the insert appends the row with the balance after it. An entry key already
 * in the ledger is a duplicate (even when its first post emptied the balance); two concurrent
 * posts of one key meet at the unique index, and the second is reported as the duplicate it is.
 * Returns null when the entry would overdraw the balance or names no account. Works inside a
 * caller's transaction too (a job's result and its charge commit together).
 */
export async function postEntry(db: Db | Tx, entry: LedgerEntry): Promise<PostResult> {
  const result = await postGuarded(db, entry, null);
  return result === 'fenced_out' ? null : result;
}

/**
 * As postEntry, with a fence (issue 23): a query that returns a row while the poster still holds
 * what entitles it to charge (an Idempotency-Key claim's token). It runs in the SAME statement as
 * the debit, which moves nothing unless the fence returned a row: a process that lost its claim
 * while it was frozen can never post. 'fenced_out' when the fence stopped it.
 */
export async function postFencedEntry(db: Db | Tx, entry: LedgerEntry, fence: SQL): Promise<PostResult | 'fenced_out'> {
  return postGuarded(db, entry, fence);
}

/**
 * As postFencedEntry, with `along`: a data-modifying query run in the SAME statement, which may read
 * `appended` (the row this post appended; empty when nothing moved) and `dup` (the entry key was
 * already in the ledger). A job's completion rides the debit this way (issue 29): its row is marked
 * completed only when its charge is in the ledger, in one round trip and one implicit transaction.
 * `after`: further common table expressions of the same statement, which may read `along` (a
 * completed job's queue entry goes with it). A unique violation (a concurrent post of the same key)
 * is thrown here, since `along` did not run.
 */
export async function postFencedEntryAlong(db: Db | Tx, entry: LedgerEntry, fence: SQL, along: SQL, after: SQL | null = null): Promise<PostResult | 'fenced_out'> {
  return postGuarded(db, entry, fence, along, after);
}

async function postGuarded(db: Db | Tx, entry: LedgerEntry, fence: SQL | null, along: SQL | null = null, after: SQL | null = null): Promise<PostResult | 'fenced_out'> {
  const { accountId, entryKey, amount, reason } = entry;
  // The console's columns ride in the same statement: no extra round trip on the billed path.
  // Array literals, since drizzle would spread a JS array into a parameter list; platform names
  // are a closed set of plain words, and quoting each element keeps any of them one element.
  const platforms = entry.platforms ? `{${entry.platforms.map((p) => `"${p.platform.replace(/["\\]/g, '')}"`).join(',')}}` : null;
  const platformCredits = entry.platforms ? `{${entry.platforms.map((p) => Math.trunc(p.credits)).join(',')}}` : null;
  try {
    // The hold this debit settles goes in the same statement (issue 23): no extra round trip.
    const settled = entry.holdId ? sql`released as (delete from credit_holds where id = ${entry.holdId}),` : sql``;
    const fenced = fence ? sql`fence as (${fence}),` : sql``;
    const entitled = fence ? sql`and exists (select 1 from fence)` : sql``;
    const { rows } = await db.execute<{ before: string | null; duplicate: boolean; after: string | null; entitled: boolean }>(sql`
      with ${settled} ${fenced} dup as (select 1 from credit_ledger where entry_key = ${entryKey}),
      moved as (
        update accounts set credit_balance = credit_balance + ${amount}
        where id = ${accountId} and credit_balance + ${amount} >= 0 and not exists (select 1 from dup) ${entitled}
        returning credit_balance
      ),
      appended as (
        insert into credit_ledger (account_id, entry_key, amount, balance_after, reason, platforms, platform_credits, status, key_id)
        select ${accountId}, ${entryKey}, ${amount}, credit_balance, ${reason}, ${platforms}::text[], ${platformCredits}::integer[], ${entry.status ?? null}, ${entry.keyId ?? null} from moved
        returning balance_after
      ) ${along ? sql`, along as (${along})` : sql``} ${along && after ? sql`, ${after}` : sql``}
      select (select credit_balance::text from accounts where id = ${accountId}) as before,
             exists (select 1 from dup) as duplicate,
             (select balance_after::text from appended) as after,
             ${fence ? sql`exists (select 1 from fence)` : sql`true`} as entitled`);
    const row = rows[0]!;
    if (!row.entitled) return 'fenced_out';
    if (row.after !== null) return { balance: Number(row.after), duplicate: false };
    if (row.duplicate && row.before !== null) return { balance: Number(row.before), duplicate: true };
    return null;
  } catch (err) {
    if (along || ((err as { code?: string; cause?: { code?: string } }).cause?.code !== UNIQUE_VIOLATION && (err as { code?: string }).code !== UNIQUE_VIOLATION)) throw err;
    const [account] = await db.select({ balance: accounts.creditBalance }).from(accounts).where(eq(accounts.id, accountId));
    return account ? { balance: account.balance, duplicate: true } : null;
  }
}

/**
 * `holdOwner`: the process id a hold taken now carries (HoldOwner.holdId, hold-owner.ts), so it
 * ends with the process; null (a ledger used only to post, or a process whose heartbeat stalled),
 * a hold ends only by its debit, release or expiry.
 */
export function createPgLedger(db: Db, holdOwner: () => string | null = () => null): Ledger {
  return {
    post: (entry) => postEntry(db, entry),
    async reserve(accountId, holdId, amount, ttlMs) {
      const { rows } = await db.execute<{ free: string | null }>(sql`select reserve_credits(${accountId}, ${holdId}, ${amount}, ${Math.round(ttlMs)}, ${holdOwner()})::text as free`);
      const free = rows[0]?.free;
      return free !== null && free !== undefined && Number(free) >= amount;
    },
    async release(holdId) {
      // Not made durable (as the hold itself): a release lost in a crash is a hold that expires.
      await db.execute(sql`with quick as (select set_config('synchronous_commit', 'off', true)) delete from ${creditHolds} where id = ${holdId} and exists (select 1 from quick)`);
    },
  };
}
