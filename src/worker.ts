import { parseConfig } from './config.js';
import { openDatabase } from './database-setup.js';
import { createDeps } from './deps.js';
import { connectRedis } from './adapters/redis/client.js';
import { startWorker } from './job-worker.js';
import { onShutdown } from './shutdown.js';

/** `npm run worker`: the job worker alone, on DATABASE_URL (or the embedded database). Several may run. */
async function main(): Promise<void> {
  const config = parseConfig(process.env);
  const database = await openDatabase(config, (line) => console.error(line));
  const redis = config.redisUrl ? await connectRedis(config.redisUrl) : undefined;
  const deps = createDeps(config, database.url, redis ? { redis } : {});
  const runner = await startWorker(deps, database.url);
  console.log(`Job worker running (concurrency ${config.worker.concurrency})`);

  onShutdown(deps.log, [
    ['job worker', () => runner.stop()],
    ['stores', () => deps.close()],
    ['database', () => database.stop()],
  ]);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
