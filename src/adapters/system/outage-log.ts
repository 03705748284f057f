import type { Logger } from 'pino';
import type { Clock } from '../../domain/ports/system.js';

/** How often a lasting outage is logged again. */
export const OUTAGE_REMINDER_MS = 60_000;

export interface OutageLog {
  /** An operation on the dependency failed; logged when the outage starts and once a minute. */
  failed(err: unknown): void;
  /** An operation succeeded; logged once, when it ends an outage. */
  succeeded(): void;
}

/**
 * How long operations must go without a failure before an outage counts as over. A Redis Cluster
 * losing one master fails only the operations on that master's slots while the rest succeed;
 * without this, every success after a failure would end the outage and the next failure start it
 * again, a pair of lines per operation until the replica is promoted.
 */
export const OUTAGE_SETTLE_MS = 2_000;

/**
 * Logs a dependency's loss once when it goes, once a minute while it lasts (with how many
 * operations fell back meanwhile) and once when it comes back, instead of one line per failed
 * operation (a 10 req/s service would write thousands of lines a minute). It is back at the first
 * success at least OUTAGE_SETTLE_MS after the last failure; `downForMs` runs from the first
 * failure to the last.
 */
export function createOutageLog(log: Logger, clock: Clock, what: string, fallback: string): OutageLog {
  let since: number | null = null;
  let lastFailure = 0;
  let loggedAt = 0;
  let failures = 0;
  return {
    failed(err) {
      const now = clock.now().getTime();
      failures++;
      lastFailure = now;
      if (since === null) {
        since = loggedAt = now;
        log.warn({ dependency: what, err: String(err) }, `${what} unavailable: ${fallback}`);
      } else if (now - loggedAt >= OUTAGE_REMINDER_MS) {
        loggedAt = now;
        log.warn({ dependency: what, err: String(err), downForMs: now - since, failures }, `${what} still unavailable: ${fallback}`);
      }
    },
    succeeded() {
      if (since === null || clock.now().getTime() - lastFailure < OUTAGE_SETTLE_MS) return;
      log.warn({ dependency: what, downForMs: lastFailure - since, failures }, `${what} available again`);
      since = null;
      failures = 0;
    },
  };
}
