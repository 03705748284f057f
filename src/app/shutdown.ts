import type { Server } from 'node:http';
import type { Logger } from 'pino';

export interface ShutdownOptions {
  /** The whole stop must finish within this; past it the process exits 1 with an error line. */
  deadlineMs?: number;
  /** Stop when the process that started us goes away (only meaningful under `npm start`). */
  watchParent?: boolean;
  /** Test seam: the process's exit. */
  exit?: (code: number) => void;
}

export type ShutdownStep = [name: string, step: () => Promise<unknown> | unknown];

/**
 * Runs shutdown steps in order on SIGINT or SIGTERM, or (with `watchParent`) when the process
 * that started us exits (`npm start` killed outright), each allowed to fail so the rest still run, then exits 0.
 * A repeated signal is ignored: Ctrl-C reaches both npm and us, and npm forwards it again.
 */
export function onShutdown(log: Logger, steps: ShutdownStep[], options: ShutdownOptions = {}): () => Promise<void> {
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const deadlineMs = options.deadlineMs ?? 25_000;
  let stopping: Promise<void> | null = null;
  const stop = (reason: string): Promise<void> => {
    stopping ??= (async () => {
      const started = Date.now();
      log.info({ event: 'stopping', reason }, 'shutting down');
      const overdue = setTimeout(() => {
        log.error({ event: 'stop_overdue', deadlineMs }, 'shutdown did not finish in time; exiting');
        exit(1);
      }, deadlineMs);
      overdue.unref();
      for (const [name, step] of steps) {
        try {
          log.debug({ event: 'stop_step', step: name }, 'stopping');
          await step();
        } catch (err) {
          log.debug({ step: name, err: String(err) }, 'shutdown step failed');
        }
      }
      clearTimeout(overdue);
      log.info({ event: 'stopped', durationMs: Date.now() - started }, 'stopped');
      exit(0);
    })();
    return stopping;
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void stop(signal));
  // A parent that dies without signalling us (npm or a shell killed with SIGKILL) re-parents us;
  // a service nobody can reach any more should not keep running.
  if (options.watchParent) {
    const parent = process.ppid;
    const watch = setInterval(() => {
      if (process.ppid !== parent) void stop('parent process exited');
    }, 1_000);
    watch.unref();
  }
  return () => stop('requested');
}

/**
 * Stops accepting connections, lets requests in flight finish for `graceMs`, then cuts the
 * connections still open (a slow live call or a stuck client must not hold the stop forever).
 */
export function closeHttpServer(server: Server, graceMs: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const cut = setTimeout(() => server.closeAllConnections(), graceMs);
    server.close(() => {
      clearTimeout(cut);
      resolve();
    });
    server.closeIdleConnections();
  });
}
