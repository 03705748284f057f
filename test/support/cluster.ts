import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import type { Redis } from 'ioredis';
import { connectRedis } from '../../src/adapters/redis/client.js';
import { createReplayServer, type Faults } from '../../src/replay/server.js';

/** Real service processes for scale-out and fault suites: API processes, workers, a Redis server of their own. */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

export interface ServiceProcess {
  proc: ChildProcess;
  url: string;
  output(): string;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

function waitForLine(proc: ChildProcess, pattern: RegExp, timeoutMs: number, out: () => string): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const poll = setInterval(() => {
      const m = out().match(pattern);
      if (m) {
        clearInterval(poll);
        resolve(m);
      } else if (proc.exitCode !== null || Date.now() - started > timeoutMs) {
        clearInterval(poll);
        reject(new Error(`no ${pattern} (exit ${proc.exitCode}):\n${out()}`));
      }
    }, 50);
  });
}

/** Starts `src/app/main.ts` (API) or `src/app/worker.ts` with the given environment and waits until it serves. */
export async function startService(kind: 'api' | 'worker', env: Record<string, string>): Promise<ServiceProcess> {
  const port = kind === 'api' ? String(await freePort()) : '0';
  const proc = spawn(process.execPath, ['--import', 'tsx', kind === 'api' ? 'src/app/main.ts' : 'src/app/worker.ts'], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/root', LOG_LEVEL: 'warn', HOST: '127.0.0.1', PORT: port, PUBLIC_URL: `http://127.0.0.1:${port}`, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  proc.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  await waitForLine(proc, kind === 'api' ? /listening on/ : /Job worker running/, 60_000, () => out).catch((err: unknown) => {
    proc.kill('SIGKILL'); // a process that did not start in time outlives no caller
    throw err;
  });
  return {
    proc,
    url: `http://127.0.0.1:${port}`,
    output: () => out,
    async kill(signal = 'SIGKILL') {
      if (proc.exitCode !== null || proc.signalCode !== null) return; // already gone (exited or killed)
      const exited = new Promise((r) => proc.once('exit', r));
      proc.kill(signal);
      await exited;
    },
  };
}

/** Starts these processes at once; if any fails to start, stops the others before rethrowing. */
export async function startServices(kinds: ('api' | 'worker')[], env: Record<string, string>): Promise<ServiceProcess[]> {
  const started = await Promise.allSettled(kinds.map((kind) => startService(kind, env)));
  const failed = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  const running = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  if (!failed) return running;
  await Promise.all(running.map((p) => p.kill()));
  throw failed.reason;
}

export interface RedisProcess {
  url: string;
  client: Redis;
  stop(): Promise<void>;
}

/** A redis-server of the suite's own, so it can be paused or stopped without touching anyone else's. */
export async function startRedis(): Promise<RedisProcess> {
  const port = await freePort();
  const proc = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  const url = `redis://127.0.0.1:${port}`;
  let client: Redis | undefined;
  for (let i = 0; i < 50 && !client; i++) {
    client = await connectRedis(url).catch(async () => void (await new Promise((r) => setTimeout(r, 100))));
  }
  if (!client) throw new Error('redis-server did not start');
  return {
    url,
    client,
    async stop() {
      client!.disconnect();
      const exited = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGKILL');
      await exited;
    },
  };
}

/** The replay upstream in this process, serving fixtures/replay with the given faults. */
export async function startReplayUpstream(faults: Partial<Faults> = {}): Promise<{ server: ReturnType<typeof createReplayServer>; url: string; close(): Promise<void> }> {
  const server = createReplayServer('fixtures/replay', faults);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    server,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

/** One Redis (its URL) or a Redis Cluster (its seed nodes, the value of REDIS_CLUSTER_NODES). */
export type SharedRedis = string | { clusterNodes: string };
/** PostgreSQL straight, or through a transaction pooler with the direct URL for sessions. */
export type SharedDatabase = string | { pooled: string; direct: string };

/** Environment of a service process sharing one database and Redis, its live platforms on the replay upstream. */
export function clusterEnv(database: SharedDatabase, redis: SharedRedis, upstream: string, platforms: string[]): Record<string, string> {
  const env: Record<string, string> = { RUN_WORKER: 'false', LIVE_PLATFORMS: platforms.join(','), UPSTREAM_RETRIES: '0' };
  if (typeof database === 'string') env.DATABASE_URL = database;
  else Object.assign(env, { DATABASE_URL: database.pooled, DATABASE_DIRECT_URL: database.direct });
  if (typeof redis === 'string') env.REDIS_URL = redis;
  else env.REDIS_CLUSTER_NODES = redis.clusterNodes;
  for (const p of platforms) env[`${p.toUpperCase()}_BASE_URL`] = `${upstream}/${p}`;
  if (platforms.includes('google')) env.GOOGLE_API_KEY = 'replay-key';
  return env;
}

/** Log lines at error level or above (pino: 50 and 60) in a process's output. */
export function errorLines(output: string): string[] {
  return output.split('\n').filter((line) => /"level":(50|60)\b/.test(line));
}
