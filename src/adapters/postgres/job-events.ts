import pg from 'pg';
import type { Logger } from 'pino';
import type { JobEvents } from '../../domain/retry-ports.js';

const CHANNEL = 'async_job_finished';

/**
 * Long polls without a poll loop: ONE connection per process LISTENs on the channel the
 * async_jobs_finished trigger (migration 0011) notifies when a job ends, in whichever process
 * ended it, and wakes the requests waiting on that job. A waiting request holds only its socket
 * and a timer. Connected on first use; if the connection drops, waiters are woken (they re-read
 * the job) and the next wait reconnects. Closing (at shutdown) wakes every waiter at once, and later
 * calls answer without waiting, so long polls never hold a shutdown up.
 */
export function createPgJobEvents(url: string, log: Logger): JobEvents {
  const waiters = new Map<string, Set<() => void>>();
  let client: Promise<pg.Client> | null = null;
  let closed = false;

  function wakeAll(): void {
    for (const set of waiters.values()) for (const wake of set) wake();
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
        if (n.channel !== CHANNEL || !n.payload) return;
        for (const wake of waiters.get(n.payload) ?? []) wake();
      });
      await c.connect();
      await c.query(`listen ${CHANNEL}`);
      return c;
    })().catch((err: unknown) => {
      client = null;
      throw err;
    });
    return client;
  }

  return {
    async listen(jobId) {
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
      const cancel = () => {
        clearTimeout(timer);
        set.delete(wake);
        if (set.size === 0 && waiters.get(jobId) === set) waiters.delete(jobId);
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
    async close() {
      closed = true;
      const c = client;
      client = null;
      wakeAll();
      if (c) await (await c.catch(() => null))?.end().catch(() => {});
    },
  };
}
