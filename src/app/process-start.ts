import { pino, type Logger } from 'pino';
import { loadEnvFile, parseConfig, type Config } from '../config.js';
import { asOperatorError } from '../domain/errors.js';
import { onShutdown, type ShutdownStep } from './shutdown.js';

export interface Starting {
  config: Config;
  /** The process's logger, at LOG_LEVEL. */
  log: Logger;
  /** Start and stop events: at info even when LOG_LEVEL is warn or error (silent hides them). */
  events: Logger;
  /** Registers how to release something just opened; stops run newest first. */
  opened(name: string, stop: () => Promise<unknown> | unknown): void;
}

/**
 * The start-up frame of `main` and `worker`: `.env`, config, one JSON log line per event, and
 * one orderly stop. A failure at start is one `fatal` line with the error's `code` and `hint`
 * (never a stack), after releasing whatever was already opened (an embedded database started
 * for a service that then cannot listen is stopped again).
 */
export function startProcess(body: (s: Starting) => Promise<void>): void {
  const steps: ShutdownStep[] = [];
  let log = pino({ level: 'info' });
  const run = async () => {
    const envFile = loadEnvFile();
    const config = parseConfig(process.env);
    const base = pino({ level: config.logLevel });
    log = config.logLevel === 'silent' || base.isLevelEnabled('info') ? base : base.child({}, { level: 'info' });
    if (envFile) log.info({ event: 'env_file', file: '.env' }, 'settings read from .env (the environment wins)');
    await body({ config, log: base, events: log, opened: (name, stop) => void steps.unshift([name, stop]) });
    onShutdown(log, steps, { deadlineMs: config.shutdownGraceMs + 15_000, watchParent: config.launchedByNpm });
  };
  run().catch(async (err: unknown) => {
    const failure = asOperatorError(err);
    log.fatal({ event: 'start_failed', code: failure.code, ...(failure.hint ? { hint: failure.hint } : {}) }, failure.message);
    for (const [, stop] of steps) await Promise.resolve().then(stop).catch(() => undefined);
    process.exit(failure.exitCode);
  });
}
