import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { SandboxCallCounter } from '../../../domain/ports/console.js';
import type { Db } from '../db.js';

/** How often the counts reach PostgreSQL: the console shows them within this. */
export const SANDBOX_FLUSH_MS = 5_000;

/**
 * The console's count of sandbox calls (issue 22), per account and UTC day. A call only adds one
 * to a number in this process's memory, so the cached hot path gains no database round trip; the
 * counts are added to `sandbox_calls` in one batched upsert every SANDBOX_FLUSH_MS and at graceful
 * shutdown. A crash loses at most the counts of the last interval: acceptable because the figure is
 * informational (it confirms free calls) and is never billed. A failed write is logged and its
 * counts are kept for the next flush.
 */
export function createSandboxCallCounter(db: Db, log: Logger, everyMs = SANDBOX_FLUSH_MS): SandboxCallCounter {
  let pending = new Map<string, { accountId: string; day: string; calls: number }>();
  let writing: Promise<void> = Promise.resolve();

  const write = async (): Promise<void> => {
    if (pending.size === 0) return;
    const batch = pending;
    pending = new Map();
    const rows = [...batch.values()].map((r) => ({ account_id: r.accountId, day: r.day, calls: r.calls }));
    try {
      // One statement for every account and day of the interval; an account deleted meanwhile is skipped.
      await db.execute(sql`
        insert into sandbox_calls (account_id, day, calls)
        select r.account_id, r.day, r.calls
        from json_to_recordset(${JSON.stringify(rows)}::json) as r(account_id text, day date, calls bigint)
        join accounts a on a.id = r.account_id
        on conflict (account_id, day) do update set calls = sandbox_calls.calls + excluded.calls`);
    } catch (err) {
      for (const [key, row] of batch) {
        const now = pending.get(key);
        pending.set(key, now ? { ...now, calls: now.calls + row.calls } : row);
      }
      log.warn({ err: err instanceof Error ? err.message : String(err), accounts: rows.length }, 'could not write sandbox call counts; kept for the next flush');
    }
  };
  // One write at a time: a slow flush is never overtaken by the next one.
  const flush = (): Promise<void> => (writing = writing.then(write));
  const timer = setInterval(() => void flush(), everyMs);
  timer.unref();

  return {
    record(accountId, at) {
      const day = at.toISOString().slice(0, 10);
      const key = `${accountId}\u0000${day}`;
      const row = pending.get(key);
      if (row) row.calls++;
      else pending.set(key, { accountId, day, calls: 1 });
    },
    flush,
    async close() {
      clearInterval(timer);
      await flush();
    },
  };
}
