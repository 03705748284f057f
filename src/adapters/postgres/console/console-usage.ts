import { sql } from 'drizzle-orm';
import type { Db } from '../db.js';

/**
 * A billed request or job: the rows the partial index credit_ledger_billed_idx holds (0013).
 * Grants and adjustments are ledger rows too, but not usage.
 */
const BILLED = sql`amount < 0 and (entry_key like 'req:%' or entry_key like 'job:%')`;
const DAY = sql`date_trunc('day', created_at at time zone 'UTC')`;

export interface BilledRequestFilter {
  operation: string | null;
  platform: string | null;
  status: 'complete' | 'partial' | null;
}

/** The console's account-wide reads of the ledger, each one statement over one account's range of the billed index. */
export function createConsoleUsage(db: Db) {
  return {
    /**
     * Credits and calls per UTC day and operation since `since`: an index-only scan of
     * credit_ledger_billed_idx, grouped by day before any formatting.
     */
    async byOperation(accountId: string, since: Date) {
      const { rows } = await db.execute<{ day: string; operation: string; calls: string; credits: string }>(sql`
        select to_char(day, 'YYYY-MM-DD') as day, operation, calls::text, credits::text from (
          select ${DAY} as day, reason as operation, count(*) as calls, -sum(amount) as credits
          from credit_ledger
          where account_id = ${accountId} and created_at >= ${since} and ${BILLED}
          group by 1, 2) per_day
        order by 1, 2`);
      return rows.map((r) => ({ day: r.day, operation: r.operation, calls: Number(r.calls), credits: Number(r.credits) }));
    },

    /**
     * Credits per UTC day and platform since `since`, split exactly by the per-platform credits
     * each debit recorded. Debits are first counted per day and platform mix (a handful of rows),
     * then unnested. A debit from before those were recorded counts as platform "unrecorded".
     */
    async byPlatform(accountId: string, since: Date) {
      const { rows } = await db.execute<{ day: string; platform: string; credits: string }>(sql`
        with mixes as (
          select ${DAY} as day, platforms, platform_credits, count(*) as n, -sum(amount) as total
          from credit_ledger
          where account_id = ${accountId} and created_at >= ${since} and ${BILLED}
          group by 1, 2, 3)
        select to_char(day, 'YYYY-MM-DD') as day, coalesce(p.platform, 'unrecorded') as platform, sum(coalesce(p.credits * n, total))::text as credits
        from mixes left join lateral unnest(platforms, platform_credits) as p(platform, credits) on true
        group by mixes.day, 2 having sum(coalesce(p.credits * n, total)) > 0
        order by 1, 2`);
      return rows.map((r) => ({ day: r.day, platform: r.platform, credits: Number(r.credits) }));
    },

    /**
     * Sandbox calls per UTC day since `since` (0 credits, so not in the ledger): the counts each
     * process writes every few seconds (sandbox-calls.ts), the account's range of the primary key.
     */
    async sandboxByDay(accountId: string, since: Date) {
      const { rows } = await db.execute<{ day: string; calls: string }>(sql`
        select to_char(day, 'YYYY-MM-DD') as day, calls::text from sandbox_calls
        where account_id = ${accountId} and day >= ${since.toISOString().slice(0, 10)}::date
        order by day`);
      return rows.map((r) => ({ day: r.day, calls: Number(r.calls) }));
    },

    /** The newest billed requests and jobs, filtered; a top-N walk of the billed index, newest first. */
    async billedRequests(accountId: string, filter: BilledRequestFilter, limit: number) {
      const { rows } = await db.execute<{ entry_key: string; operation: string; credits: string; at: Date; platforms: string[] | null; status: string | null }>(sql`
        select entry_key, reason as operation, (-amount)::text as credits, created_at as at, platforms, status
        from credit_ledger
        where account_id = ${accountId} and ${BILLED}
          ${filter.operation ? sql`and reason = ${filter.operation}` : sql``}
          ${filter.platform ? sql`and platforms @> array[${filter.platform}]::text[]` : sql``}
          ${filter.status ? sql`and status = ${filter.status}` : sql``}
        order by created_at desc, id desc limit ${limit}`);
      return rows.map((r) => ({
        // A job's charge is keyed by its job id, a request's by its request id.
        requestId: r.entry_key.slice(r.entry_key.indexOf(':') + 1),
        kind: r.entry_key.startsWith('job:') ? ('job' as const) : ('request' as const),
        operation: r.operation,
        platforms: r.platforms ?? [],
        status: r.status === 'complete' || r.status === 'partial' ? r.status : null,
        credits: Number(r.credits),
        at: new Date(r.at).toISOString(),
      }));
    },
  };
}
