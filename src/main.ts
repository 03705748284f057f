import { writeFile, readFile } from 'node:fs/promises';
import path from 'node:path';
import { createServer } from 'node:http';
import { atListeningPort, localOrigin, parseConfig } from './config.js';
import { openDatabase } from './database-setup.js';
import { createDeps, type Deps } from './deps.js';
import { createRequestHandler } from './server.js';
import { createMetricsServer } from './facades/metrics.js';
import { connectRedis } from './adapters/redis/client.js';
import { startWorker } from './job-worker.js';
import { onShutdown } from './shutdown.js';

const DEMO_EMAIL = 'demo@example.com';

/** First embedded start: a demo account with a sandbox key, printed once and kept in DATA_DIR. */
async function ensureDemoAccount(deps: Deps, dataDir: string): Promise<string | null> {
  const keyFile = path.join(dataDir, 'demo-sandbox-key');
  const existing = await deps.admin.findAccountByEmail(DEMO_EMAIL);
  if (existing) return readFile(keyFile, 'utf8').then((k) => k.trim()).catch(() => null);
  const { accountId } = await deps.admin.createAccount({ email: DEMO_EMAIL, plan: 'free', credits: 0, verified: true, password: null });
  const { key } = await deps.admin.createKey(accountId, 'sandbox');
  await writeFile(keyFile, `${key}\n`, { mode: 0o600 });
  return key;
}

async function main(): Promise<void> {
  const env = parseConfig(process.env);
  const database = await openDatabase(env, (line) => console.error(line));
  const redis = env.redisUrl ? await connectRedis(env.redisUrl) : undefined;
  // Bound first, so that with PORT=0 the default public URL (the OAuth issuer and the MCP resource)
  // is the address printed below. Nothing awaits between binding and attaching the handler.
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(env.port, env.host, resolve));
  const address = server.address();
  const config = atListeningPort(env, typeof address === 'object' && address ? address.port : env.port);
  const deps = createDeps(config, database.url, redis ? { redis } : {});
  server.on('request', createRequestHandler(deps));
  const demoKey = database.embedded ? await ensureDemoAccount(deps, config.dataDir) : null;
  const runner = config.runWorker ? await startWorker(deps, database.url) : null;
  // Metrics on a listener of their own, reachable from this machine only (README, Observability).
  const metricsServer = config.metrics.port === null ? null : createMetricsServer(deps);
  if (metricsServer) await new Promise<void>((resolve) => metricsServer.listen(config.metrics.port!, '127.0.0.1', resolve));

  const where = localOrigin(config.host, config.port);
  console.log(`Accommodation Data Service listening on ${where} (docs: ${config.publicUrl}/docs)`);
  console.log(`MCP: ${config.publicUrl}/mcp (OAuth issuer ${config.publicUrl}; set PUBLIC_URL when clients reach it elsewhere)`);
  if (database.embedded) console.log(`Database: embedded PostgreSQL in ${path.resolve(config.dataDir, 'pg')}`);
  console.log(runner ? 'Job worker: in this process (RUN_WORKER=false to run it apart with npm run worker)' : 'Job worker: not in this process');
  console.log(redis ? 'Cache and rate limits: Redis (shared by every process)' : 'Cache and rate limits: in-process (set REDIS_URL to share them)');
  if (demoKey) {
    console.log(`Sandbox key (demo account): ${demoKey}`);
    console.log(`Try: curl -H "Authorization: Bearer ${demoKey}" "${where}/v1/search?location=Lisbon"`);
  }

  onShutdown(deps.log, [
    // Long polls answer at once (202 or the job as it stands) instead of holding the close up.
    ['long polls', () => deps.jobEvents.close()],
    ['http server', () => {
      server.closeIdleConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    }],
    ['metrics listener', () => new Promise<void>((resolve) => (metricsServer ? metricsServer.close(() => resolve()) : resolve()))],
    ['job worker', () => runner?.stop()],
    ['stores', () => deps.close()],
    ['database', () => database.stop()],
  ]);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
