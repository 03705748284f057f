import { openDatabase } from './database-setup.js';
import { createDeps } from '../deps.js';
import { connectConfiguredRedis } from '../adapters/redis/client.js';
import { startWorker } from './job-worker.js';
import { startProcess } from './process-start.js';

/** `npm run worker`: the job worker alone, on DATABASE_URL (or the embedded database). Several may run. */
startProcess(async ({ config, log, events, opened }) => {
  const database = await openDatabase(config);
  opened('database', () => database.stop());
  const redis = await connectConfiguredRedis(config);
  const deps = createDeps(config, database.url, { log, ...(redis ? { redis } : {}) });
  opened('stores', () => deps.close());
  const runner = await startWorker(deps, database.url);
  opened('job worker', () => runner.stop());
  events.info({ event: 'worker', concurrency: config.worker.concurrency }, `Job worker running (concurrency ${config.worker.concurrency})`);
});
