import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';

/**
 * A Redis Cluster of the suite's own: `redis-server --cluster-enabled yes` processes on free
 * ports in a temporary folder, joined by `redis-cli --cluster create`, never the shared Redis on
 * 6379. Each node also needs its cluster bus port (its port + 10000) free.
 */
export interface ClusterNodeInfo {
  id: string;
  port: number;
  role: 'master' | 'replica';
  /** For a replica, the id of its master. */
  masterId: string | null;
  /** Slot ranges served, for a master. */
  slots: [number, number][];
}

export interface RedisClusterProcess {
  /** Every node's port, masters and replicas. */
  ports: number[];
  /** The temporary folder of the nodes' configs and logs (`redis-<port>.log`). */
  dir: string;
  /** The value of REDIS_CLUSTER_NODES for this cluster. */
  seeds: string;
  nodes: { host: string; port: number }[];
  /** The cluster's view of itself, as the node at `askPort` (default: any live node) tells it. */
  topology(askPort?: number): Promise<ClusterNodeInfo[]>;
  /** Kills one node's process with SIGKILL (no goodbye to the cluster: a crash). */
  kill(port: number): Promise<void>;
  /** Starts a killed node again on its port, with its cluster configuration (its data is gone). */
  restart(port: number): void;
  /**
   * Waits until every live node says cluster_state:ok and agrees on which nodes are masters of
   * slots, and every live replica is in sync with its master (only then can it be promoted).
   */
  waitHealthy(timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

const run = promisify(execFile);

/** True when 127.0.0.1:port can be bound now. */
function bindable(port: number): Promise<boolean> {
  const s = createServer();
  return new Promise((resolve) => {
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}

/** A port in 20000-44999 whose cluster bus port (+10000) is free too, not in `taken`. */
async function freeClusterPort(taken: Set<number>): Promise<number> {
  for (let i = 0; i < 200; i++) {
    const port = 20_000 + Math.floor(Math.random() * 25_000);
    if (taken.has(port) || taken.has(port + 10_000) || taken.has(port - 10_000)) continue;
    if ((await bindable(port)) && (await bindable(port + 10_000))) return port;
  }
  throw new Error('no free port pair for a Redis Cluster node');
}

/** One command to one node, on a connection of its own (no cluster redirection). */
export async function ask(port: number, ...args: string[]): Promise<string> {
  return String(await askRaw(port, ...args));
}

export async function askRaw(port: number, ...args: string[]): Promise<unknown> {
  const client = new Redis({ host: '127.0.0.1', port, lazyConnect: true, disableClientInfo: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 1_000 });
  client.on('error', () => {});
  try {
    await client.connect();
    return await client.call(args[0]!, ...args.slice(1));
  } finally {
    client.disconnect();
  }
}

function parseNodes(text: string): ClusterNodeInfo[] {
  return text
    .trim()
    .split('\n')
    .map((line) => {
      const [id, address, flags, master, , , , link, ...slots] = line.split(' ');
      if (flags!.includes('fail') || link !== 'connected') return null;
      return {
        id: id!,
        port: Number(address!.split('@')[0]!.split(':').at(-1)),
        role: flags!.includes('master') ? ('master' as const) : ('replica' as const),
        masterId: master === '-' ? null : master!,
        slots: slots.filter((s) => !s.startsWith('[')).map((s) => {
          const [a, b] = s.split('-').map(Number);
          return [a!, b ?? a!] as [number, number];
        }),
      };
    })
    .filter((n): n is ClusterNodeInfo => n !== null);
}

/** Starts `masters` masters with `replicasPerMaster` replicas each; a short node timeout keeps failovers quick. */
export async function startRedisCluster(opts: { masters?: number; replicasPerMaster?: number; nodeTimeoutMs?: number } = {}): Promise<RedisClusterProcess> {
  const masters = opts.masters ?? 3;
  const replicas = opts.replicasPerMaster ?? 1;
  const dir = await mkdtemp(path.join(tmpdir(), 'ads-redis-cluster-'));
  const taken = new Set<number>();
  const ports: number[] = [];
  for (let i = 0; i < masters * (1 + replicas); i++) {
    const port = await freeClusterPort(taken);
    taken.add(port);
    ports.push(port);
  }
  const procs = new Map<number, ChildProcess>();
  // A node restarted on its port finds its nodes-<port>.conf and rejoins the cluster it knew.
  const startNode = (port: number) => {
    const args = ['--port', String(port), '--bind', '127.0.0.1', '--cluster-enabled', 'yes', '--cluster-config-file', path.join(dir, `nodes-${port}.conf`)];
    args.push('--cluster-node-timeout', String(opts.nodeTimeoutMs ?? 1_000), '--dir', dir, '--logfile', path.join(dir, `redis-${port}.log`), '--save', '', '--appendonly', 'no', '--daemonize', 'no');
    // A replica can only be promoted once it has synced with its master: sync at once, not after 5 s.
    args.push('--repl-diskless-sync-delay', '0');
    procs.set(port, spawn('redis-server', args, { stdio: 'ignore' }));
  };
  ports.forEach(startNode);
  const alive = () => ports.filter((p) => procs.get(p)!.exitCode === null && procs.get(p)!.signalCode === null);
  const cluster: RedisClusterProcess = {
    ports,
    dir,
    seeds: ports.map((p) => `127.0.0.1:${p}`).join(','),
    nodes: ports.map((port) => ({ host: '127.0.0.1', port })),
    async topology(askPort) {
      return parseNodes(await ask(askPort ?? alive()[0]!, 'CLUSTER', 'NODES'));
    },
    async kill(port) {
      const proc = procs.get(port)!;
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      const exited = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGKILL');
      await exited;
    },
    restart(port) {
      startNode(port);
    },
    async waitHealthy(timeoutMs = 20_000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const live = alive();
        const states = await Promise.all(live.map((p) => ask(p, 'CLUSTER', 'INFO').catch(() => '')));
        const views = await Promise.all(live.map((p) => cluster.topology(p).catch(() => [])));
        const mastersOf = (v: ClusterNodeInfo[]) => v.filter((n) => n.role === 'master' && n.slots.length > 0).map((n) => n.id).sort().join(',');
        const agreed = views.every((v) => mastersOf(v) === mastersOf(views[0]!) && mastersOf(v).split(',').length === masters);
        const replication = await Promise.all(live.map((p) => ask(p, 'INFO', 'replication').catch(() => '')));
        const synced = replication.every((r) => !r.includes('role:slave') || r.includes('master_link_status:up'));
        if (states.every((s) => s.includes('cluster_state:ok')) && agreed && synced) return;
        if (Date.now() > until) throw new Error(`cluster not healthy within ${timeoutMs} ms: ${states.map((s) => /cluster_state:\w+/.exec(s)?.[0]).join(' ')}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    async stop() {
      await Promise.all(ports.map((p) => cluster.kill(p)));
      await rm(dir, { recursive: true, force: true });
    },
  };
  try {
    for (const port of ports) {
      for (let i = 0; ; i++) {
        if ((await ask(port, 'PING').catch(() => '')) === 'PONG') break;
        if (i > 100) throw new Error(`redis-server on ${port} did not start`);
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    await run('redis-cli', ['--cluster', 'create', ...ports.map((p) => `127.0.0.1:${p}`), '--cluster-replicas', String(replicas), '--cluster-yes'], { timeout: 30_000 });
    await cluster.waitHealthy();
  } catch (err) {
    await cluster.stop(); // no server outlives a failed start
    throw err;
  }
  return cluster;
}
