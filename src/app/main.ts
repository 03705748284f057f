import { randomBytes } from 'node:crypto';
import { access, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createServer, type Server } from 'node:http';
import { atListeningPort, localOrigin } from '../config.js';
import { openDatabase } from './database-setup.js';
import { createDeps, type Deps } from '../deps.js';
import { createRequestHandler } from './server.js';
import { createMetricsServer } from '../facades/metrics.js';
import { connectConfiguredRedis } from '../adapters/redis/client.js';
import { startWorker } from './job-worker.js';
import { closeHttpServer } from './shutdown.js';
import { startProcess } from './process-start.js';
import { OperatorError } from '../domain/errors.js';
import type { Logger } from 'pino';

const DEMO_EMAIL = 'demo@example.com';

/** Where an embedded start keeps the demo account's secrets, in DATA_DIR (mode 600). */
const demoFiles = (dataDir: string) => ({ file: path.resolve(dataDir, 'demo-sandbox-key'), passwordFile: path.resolve(dataDir, 'demo-console-sign-in') });

/** The demo account's secrets on its first start; on later starts only where they are kept. */
type DemoAccount =
  | { created: true; key: string; file: string; password: string; passwordFile: string }
  | { created: false; file: string | null; passwordFile: string | null };

const kept = (file: string) => access(file).then(() => file, () => null);

/**
 * A demo account with a sandbox key and a console password (random, so no two machines share
 * one), both kept in DATA_DIR, made on the first embedded start; later starts say where they are,
 * since the start that printed them may be long gone from the terminal.
 */
async function demoAccount(deps: Deps, dataDir: string): Promise<DemoAccount> {
  const { file, passwordFile } = demoFiles(dataDir);
  if (await deps.admin.findAccountByEmail(DEMO_EMAIL)) return { created: false, file: await kept(file), passwordFile: await kept(passwordFile) };
  const password = randomBytes(12).toString('base64url');
  const { accountId } = await deps.admin.createAccount({ email: DEMO_EMAIL, plan: 'free', credits: 0, verified: true, password });
  const { key } = await deps.admin.createKey(accountId, 'sandbox');
  await writeFile(file, `${key}\n`, { mode: 0o600 });
  await writeFile(passwordFile, `${DEMO_EMAIL}\n${password}\n`, { mode: 0o600 });
  return { created: true, key, file, password, passwordFile };
}

/**
 * `start:prod` on the development defaults works, which is why it must say so loudly: an embedded
 * database lives and dies with this process's DATA_DIR, and in-process limits and cache are per
 * process, so a second instance doubles every account's rate limit.
 */
function warnUnlessProductionReady(events: Logger, embeddedDatabase: boolean, stores: string): void {
  if (embeddedDatabase) {
    events.warn({ event: 'not_production_ready', setting: 'DATABASE_URL' }, 'NOT READY FOR PRODUCTION: NODE_ENV=production on the embedded PostgreSQL in DATA_DIR; set DATABASE_URL to a managed PostgreSQL');
  }
  if (stores === 'in-process') {
    events.warn({ event: 'not_production_ready', setting: 'REDIS_URL' }, 'NOT READY FOR PRODUCTION: NODE_ENV=production with in-process rate limits and cache, counted per process; set REDIS_URL (or REDIS_CLUSTER_NODES) so every process shares them');
  }
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EADDRINUSE') reject(new OperatorError('port_in_use', `PORT ${port} on ${host} is already in use`, 'stop the process using it, or set PORT to a free port'));
      else if (err.code === 'EACCES') reject(new OperatorError('port_in_use', `PORT ${port} on ${host} needs privileges this process lacks`, 'set PORT to 1024 or above'));
      else reject(err);
    });
    server.listen(port, host, () => {
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : port);
    });
  });
}

startProcess(async ({ config: env, log, events, opened }) => {
  const database = await openDatabase(env);
  opened('database', () => database.stop());
  events.info(database.where ? { event: 'database', kind: 'embedded', dir: database.where.dir, port: database.where.port, startedHere: database.where.startedHere, ...(database.where.adopted ? { adopted: true } : {}) } : { event: 'database', kind: 'external' }, 'database ready, migrations applied');
  const redis = await connectConfiguredRedis(env);
  // Bound first, so that with PORT=0 the default public URL (the OAuth issuer and the MCP resource)
  // is the address printed below. Nothing awaits between building the deps and attaching the handler.
  const server = createServer();
  const port = await listen(server, env.port, env.host);
  const config = atListeningPort(env, port);
  const deps = createDeps(config, database.url, { log, ...(redis ? { redis } : {}) });
  // Health says 503 until the last start-up event below: only then is the service what it promised.
  let started = false;
  server.on('request', createRequestHandler(deps, { started: () => started }));
  opened('stores', () => deps.close());
  const stores = env.redisClusterNodes ? 'redis-cluster' : redis ? 'redis' : 'in-process';
  events.info({ event: 'stores', cacheAndLimits: stores }, redis ? `cache and rate limits in ${stores === 'redis-cluster' ? 'a Redis Cluster' : 'Redis'}, shared by every process` : 'cache and rate limits in-process (set REDIS_URL or REDIS_CLUSTER_NODES to share them)');
  if (config.production) warnUnlessProductionReady(events, database.embedded, stores);
  const demo = database.embedded ? await demoAccount(deps, config.dataDir) : null;
  const runner = config.runWorker ? await startWorker(deps, database.url) : null;
  if (runner) opened('job worker', () => runner.stop());
  events.info({ event: 'worker', inProcess: Boolean(runner) }, runner ? 'job worker in this process (RUN_WORKER=false to run it apart with npm run worker)' : 'job worker not in this process');
  // Metrics on a listener of their own, reachable from this machine only (README, Observability).
  if (config.metrics.port !== null) {
    const metricsServer = createMetricsServer(deps);
    await listen(metricsServer, config.metrics.port, '127.0.0.1');
    opened('metrics listener', () => new Promise<void>((resolve) => metricsServer.close(() => resolve())));
  }
  // Stops run newest first: long polls answer at once, then the listener drains, then the rest.
  opened('http server', () => closeHttpServer(server, config.shutdownGraceMs));
  opened('long polls', () => deps.jobEvents.close());
  const url = localOrigin(config.host, port);
  events.info({ event: 'listening', url, docs: `${config.publicUrl}/docs`, mcp: `${config.publicUrl}/mcp` }, `listening on ${url}; MCP at ${config.publicUrl}/mcp (OAuth issuer ${config.publicUrl}; set PUBLIC_URL when clients reach it elsewhere)`);
  if (demo && !demo.created) {
    const where = demo.file && demo.passwordFile ? `its sandbox key is kept in ${demo.file}, its console sign-in in ${demo.passwordFile}` : 'its key and sign-in files are gone from DATA_DIR: make a key with npm run cli -- key create, a password with npm run cli -- account set-password';
    events.info({ event: 'demo_account', email: DEMO_EMAIL, keyFile: demo.file, signInFile: demo.passwordFile }, `demo account ${DEMO_EMAIL}: ${where} (printed on the first start only)`);
  }
  if (demo?.created) {
    const tryIt = `curl -H "Authorization: Bearer ${demo.key}" "${url}/v1/search?location=Lisbon"`;
    events.info({ event: 'sandbox_key', key: demo.key, file: demo.file, try: tryIt }, `demo account created; its sandbox key, shown this once (kept in ${demo.file}): ${demo.key}`);
    const consoleUrl = `${config.publicUrl}/console/`;
    events.info({ event: 'console_sign_in', url: consoleUrl, email: DEMO_EMAIL, password: demo.password, file: demo.passwordFile }, `developer console at ${consoleUrl}: sign in as ${DEMO_EMAIL} with password ${demo.password} (kept in ${demo.passwordFile})`);
  }
  started = true;
});
