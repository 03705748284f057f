import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '../db.js';

/** This process as the owner of its live calls' credit holds (issue 35). */
export interface HoldOwner {
  /** The id its holds carry (`proc_<ULID>`, one per process start). */
  readonly id: string;
  /**
   * The id a hold taken now should carry: this process's while its last beat is younger than half
   * the staleness window, else null (a hold that only its expiry ends). A process whose beats stall
   * or fail is being judged dead by the others, and a hold carrying its id would be released under
   * a live call.
   */
  holdId(): string | null;
  /** One heartbeat now, releasing the holds of processes that stopped beating; how many it released. */
  beat(): Promise<number>;
  /** Stops beating; this process's row and any hold it still has go with it. Never throws (a failure is logged). */
  close(): Promise<void>;
}

/** The failure's class and driver code only: a failed query's error quotes its text and parameters. */
function failureOf(err: unknown): { errorClass: string; code?: string } {
  const root = (err as { cause?: unknown }).cause ?? err;
  const code = (root as { code?: unknown }).code;
  return { errorClass: root instanceof Error ? root.constructor.name : typeof root, ...(typeof code === 'string' ? { code } : {}) };
}

export interface HoldOwnerTiming {
  heartbeatMs: number;
  staleAfterMs: number;
}

/**
 * Beats at once and then every `heartbeatMs` (beat_credit_hold_owner, drizzle/0018): as
 * graphile-worker does for its workers, a process that stops beating is dead, and any living one
 * releases its holds, so a killed process's holds free the balance within about
 * `staleAfterMs + heartbeatMs` instead of their two-minute expiry. `db` should be a pool of its
 * own: a beat queued behind a burst of billed calls would look like a missed one. A beat never
 * overlaps the one before (a slow database skips beats rather than piling them up). One statement
 * per beat and no session state, so it works behind pgbouncer in transaction mode.
 */
export function startHoldOwner(db: Db, id: string, timing: HoldOwnerTiming, log: Logger): HoldOwner {
  // A window of fewer beats would take a living process that missed one or two for a dead one.
  if (timing.staleAfterMs < 3 * timing.heartbeatMs) throw new Error('credit hold staleness window must span at least 3 heartbeats');
  let failing = false;
  let running: Promise<number> | null = null;
  let lastBeatAt = -Infinity;
  const beatOnce = async (): Promise<number> => {
    const { rows } = await db.execute<{ released: number }>(sql`select beat_credit_hold_owner(${id}, ${Math.round(timing.staleAfterMs)}) as released`);
    lastBeatAt = performance.now();
    const released = Number(rows[0]?.released ?? 0);
    if (failing) log.info({ processId: id }, 'credit hold heartbeat restored');
    failing = false;
    if (released > 0) log.warn({ processId: id, released }, 'released the credit holds of a process that stopped beating (presumed dead)');
    return released;
  };
  const beat = (): Promise<number> => {
    running ??= beatOnce().finally(() => (running = null));
    return running;
  };
  const tick = () =>
    void beat().catch((err: unknown) => {
      // Logged once per outage: the next beats keep trying.
      if (!failing) log.warn({ processId: id, ...failureOf(err) }, 'credit hold heartbeat failed; retrying every beat');
      failing = true;
    });
  tick();
  const timer = setInterval(tick, timing.heartbeatMs);
  timer.unref();
  return {
    id,
    holdId: () => (performance.now() - lastBeatAt < timing.staleAfterMs / 2 ? id : null),
    beat,
    async close() {
      clearInterval(timer);
      await running?.catch(() => undefined);
      await db.execute(sql`with gone as (delete from credit_holds where process_id = ${id}) delete from credit_hold_owners where id = ${id}`).catch((err: unknown) => {
        log.warn({ processId: id, ...failureOf(err) }, 'credit hold owner not removed at shutdown; its holds are released once it is stale');
      });
    },
  };
}
