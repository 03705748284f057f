import pg from 'pg';
import { sql, type SQL } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { JobEvents, JobLegEvent } from '../../../domain/ports/jobs.js';

const CHANNEL = 'async_job_finished';
/** A job's finished platform legs (issue 16 progress): JSON `{ jobId, ...JobLegEvent }`, sent by the worker. */
const LEG_CHANNEL = 'async_job_leg';

/**
 * An expression announcing `legs` of a job (as `publishLeg` would, one after the other) inside a
 * caller's statement: the job's completion tells its last legs this way, evaluated before the end
 * of its statement, so before the async_jobs_finished trigger announces the job's end (a
 * transaction's notifications arrive in the order they were made).
 */
export function legNotices(jobId: string, legs: JobLegEvent[]): SQL {
  const payloads = JSON.stringify(legs.map((leg) => JSON.stringify({ jobId, ...leg })));
  return sql`(select count(pg_notify(${LEG_CHANNEL}, t.payload)) from json_array_elements_text(${payloads}::json) as t(payload))`;
}

/**
 * Long polls without a poll loop: ONE connection per process LISTENs on the channel the
 * async_jobs_finished trigger (migration 0011) notifies when a job ends, in whichever process
 * ended it, and wakes the requests waiting on that job. A waiting request holds only its socket
 * and a timer. Connected on first use; if the connection drops, waiters are woken (they re-read
 * the job) and the next wait reconnects. Closing (at shutdown) wakes every waiter at once, and later
 * calls answer without waiting, so long polls never hold a shutdown up.
 * Legs are announced on a second channel through the service's pool (`publish`), not stored: a
 * listener that joins late hears only later legs, whose `done` count says how many came before.
 */
export function createPgJobEvents(url: string, log: Logger, publish: Pick<pg.Pool, 'query'>): JobEvents {
  const waiters = new Map<string, Set<() => void>>();
  const legListeners = new Map<string, Set<(leg: JobLegEvent) => void>>();
  let client: Promise<pg.Client> | null = null;
  let closed = false;

  function wakeAll(): void {
    for (const set of waiters.values()) for (const wake of set) wake();
  }

  function hearLeg(payload: string): void {
    try {
      const { jobId, ...leg } = JSON.parse(payload) as JobLegEvent & { jobId: string };
      for (const tell of legListeners.get(jobId) ?? []) tell(leg);
    } catch (err) {
      log.warn({ err: String(err) }, 'unreadable job leg event ignored');
    }
  }

  function connection(): Promise<pg.Client> {
    client ??= (async () => {
      const c = new pg.Client({ connectionString: url, application_name: 'accommodation-data-service-events' });
      const lost = (err?: Error) => {
        if (err) log.warn({ err: String(err) }, 'job event connection lost; waiting requests re-read their jobs');
        client = null;
        wakeAll();
      };
      c.on('error', lost);
      c.on('end', () => lost());
      c.on('notification', (n) => {
        if (!n.payload) return;
        if (n.channel === CHANNEL) for (const wake of waiters.get(n.payload) ?? []) wake();
        if (n.channel === LEG_CHANNEL) hearLeg(n.payload);
      });
      await c.connect();
      await c.query(`listen ${CHANNEL}`);
      await c.query(`listen ${LEG_CHANNEL}`);
      return c;
    })().catch((err: unknown) => {
      client = null;
      throw err;
    });
    return client;
  }

  return {
    async listen(jobId, onLeg) {
      if (closed) throw new Error('job events are closed (shutting down)');
      await connection();
      let wake: () => void = () => {};
      let timer: NodeJS.Timeout | undefined;
      const ended = new Promise<boolean>((resolve) => {
        wake = () => resolve(true);
      });
      const set = waiters.get(jobId) ?? new Set();
      set.add(wake);
      waiters.set(jobId, set);
      const legs = onLeg ? (legListeners.get(jobId) ?? new Set()) : null;
      if (legs && onLeg) {
        legs.add(onLeg);
        legListeners.set(jobId, legs);
      }
      const cancel = () => {
        clearTimeout(timer);
        set.delete(wake);
        if (set.size === 0 && waiters.get(jobId) === set) waiters.delete(jobId);
        if (legs && onLeg) {
          legs.delete(onLeg);
          if (legs.size === 0 && legListeners.get(jobId) === legs) legListeners.delete(jobId);
        }
      };
      return {
        async done(timeoutMs) {
          const timedOut = new Promise<boolean>((resolve) => {
            timer = setTimeout(() => resolve(false), timeoutMs);
          });
          try {
            return await Promise.race([ended, timedOut]);
          } finally {
            cancel();
          }
        },
        cancel,
      };
    },
    async publishLeg(jobId, leg) {
      // Progress is a courtesy: a lost event must never fail or delay the job beyond this query.
      await publish.query('select pg_notify($1, $2)', [LEG_CHANNEL, JSON.stringify({ jobId, ...leg })]).catch((err: unknown) => {
        log.warn({ jobId, err: String(err) }, 'job leg event not sent');
      });
    },
    async close() {
      closed = true;
      const c = client;
      client = null;
      wakeAll();
      if (c) await (await c.catch(() => null))?.end().catch(() => {});
    },
  };
}
