/**
 * 13. Scale-out on the cluster: throughput of a billed cached live search through 2 API processes
 * against 1, both on the same 3-master Redis Cluster (rate limits and cache) and the same
 * PostgreSQL reached through pgbouncer in transaction mode (DATABASE_URL, as the production
 * guide's "Beyond one machine" deploys it; DATABASE_DIRECT_URL for sessions). Real processes
 * (`src/app/main.ts`, RUN_WORKER=false), the load from one child process: 4 accounts, each its
 * own autocannon instance of 4 connections (one account's debits take its balance row in turn, a
 * limit of their own), all to one process or alternately to both, in alternating short rounds.
 *
 * On 2 cores the cores are the wall: the load generator, the API processes, the Redis masters,
 * pgbouncer and PostgreSQL share them, and one API process already leaves none idle. So a second
 * process cannot add throughput here; what the row shows is that it costs little (no shared state
 * serialises the processes), and it reports what the API processes got: their CPU per search
 * (from /proc, so Linux only) and their share of the cores. Goal on 2 cores: ratio >= 0.70, a
 * floor against serialisation (a lock or hot key shared by the processes would drop it towards
 * 0.5), not a promise of gain; on a machine with idle cores, expect towards 2.
 *   npx tsx bench/scale-out.ts     (needs PostgreSQL at TEST_DATABASE_URL or 127.0.0.1:5432,
 *                                   redis-server, redis-cli and pgbouncer on the PATH)
 */
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { testConfig } from '../src/config.js';
import { createDeps } from '../src/deps.js';
import { clusterEnv, startReplayUpstream, startServices, type ServiceProcess } from '../test/support/cluster.js';
import { createTestDatabase } from '../test/support/db.js';
import { startPgbouncer } from '../test/support/pgbouncer.js';
import { startRedisCluster } from '../test/support/redis-cluster.js';
import { bearer, expectStatuses, interleave, loadFromChild, median, perSecond, progress, row, scenarioMain, type LoadTarget, type Row } from './support.js';

const ROUNDS = 10;
const DURATION_MS = 2_000;
const ACCOUNTS = 4;
/** Per account: 16 connections in all, whichever variant. */
const CONNECTIONS = 4;
const GOAL = 0.7;
const PATH = '/v1/search?location=Lisbon&platforms=airbnb,booking&checkIn=2029-05-01&checkOut=2029-05-03';

/** The share of both cores' time spent busy between two readings of os.cpus(). */
function busyMeter(): () => number {
  const read = () => cpus().reduce((acc, c) => ({ idle: acc.idle + c.times.idle, total: acc.total + c.times.user + c.times.nice + c.times.sys + c.times.irq + c.times.idle }), { idle: 0, total: 0 });
  const start = read();
  return () => {
    const end = read();
    return 1 - (end.idle - start.idle) / (end.total - start.total);
  };
}

/** CPU time (user + system) a process has used so far, in ms, from /proc (Linux; clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

export async function run(): Promise<Row[]> {
  const [db, cluster, bouncer, replay] = await Promise.all([createTestDatabase(), startRedisCluster({ masters: 3, replicasPerMaster: 0 }), startPgbouncer(), startReplayUpstream()]);
  const admin = createDeps(testConfig(), db.url);
  const apis: ServiceProcess[] = [];
  try {
    const env = {
      ...clusterEnv({ pooled: bouncer.urlFor(db.url), direct: db.url }, { clusterNodes: cluster.seeds }, replay.url, ['airbnb', 'booking']),
      NODE_ENV: 'production',
      CURSOR_SECRET: 'bench-cursor-secret-0123456789',
    };
    apis.push(...(await startServices(['api', 'api'], env)));
    const keys: string[] = [];
    for (let i = 0; i < ACCOUNTS; i++) {
      const { accountId } = await admin.admin.createAccount({ email: `scale-out-${i}@example.com`, plan: 'enterprise', credits: 1_000_000_000, verified: true, password: null });
      // Far above what the bench can send: 429s would be no figure.
      await admin.db.execute(`update accounts set rate_limit_override = 1000000000 where id = '${accountId}'`);
      keys.push((await admin.admin.createKey(accountId, 'live')).key);
    }
    // The one upstream call: every later search is a cache hit from the cluster, billed.
    const first = await fetch(`${apis[0]!.url}${PATH}`, { headers: bearer(keys[0]!) });
    if (first.status !== 200) throw new Error(`live search answered ${first.status}: ${await first.text()}`);
    const targets = (processes: number): LoadTarget[] => keys.map((key, i) => ({ url: `${apis[i % processes]!.url}${PATH}`, headers: bearer(key) }));
    const job = (processes: number, durationMs = DURATION_MS) => ({ kind: 'throughput', connections: CONNECTIONS, durationMs, ...targets(processes)[0]!, spread: targets(processes) }) as const;
    const check = (await (await fetch(`${apis[1]!.url}${PATH}`, { headers: bearer(keys[1]!) })).json()) as { meta: { cached: boolean; creditsCharged: number } };
    if (!check.meta.cached || check.meta.creditsCharged <= 0) throw new Error('the second process did not answer a billed cache hit');
    await loadFromChild(job(2, 3_000)); // warm-up: JIT, pools, each process's key and page caches

    const busy: Record<string, number[]> = { one: [], two: [] };
    const cpuPerSearch: Record<string, number[]> = { one: [], two: [] };
    const apiShare: Record<string, number[]> = { one: [], two: [] };
    const apiCpu = () => apis.reduce((n, p) => n + cpuMs(p.proc.pid!), 0);
    const measure = async (name: 'one' | 'two', processes: number) => {
      const meter = busyMeter();
      const cpu0 = apiCpu();
      const result = expectStatuses(await loadFromChild(job(processes)), '200', `${processes} API process(es)`);
      busy[name]!.push(meter());
      cpuPerSearch[name]!.push((apiCpu() - cpu0) / result.requests);
      apiShare[name]!.push((apiCpu() - cpu0) / (DURATION_MS * cpus().length));
      return result.rps;
    };
    const results = await interleave(ROUNDS, { one: () => measure('one', 1), two: () => measure('two', 2) });
    progress(`scale-out: 1 process ${results.one!.map(Math.round).join(', ')} req/s; 2 processes ${results.two!.map(Math.round).join(', ')} req/s`);
    progress(`scale-out: API CPU per search, 1 process ${cpuPerSearch.one!.map((x) => x.toFixed(3)).join(', ')} ms; 2 processes ${cpuPerSearch.two!.map((x) => x.toFixed(3)).join(', ')} ms`);
    progress(`scale-out: API processes' share of all cores, 1 process ${apiShare.one!.map((x) => x.toFixed(2)).join(', ')}; 2 processes ${apiShare.two!.map((x) => x.toFixed(2)).join(', ')}`);
    progress(`scale-out: machine busy, 1 process ${busy.one!.map((x) => x.toFixed(2)).join(', ')}; 2 processes ${busy.two!.map((x) => x.toFixed(2)).join(', ')}`);
    const one = median(results.one!);
    const two = median(results.two!);
    const ratio = two / one;
    const pctOf = (xs: number[]) => `${Math.round(median(xs) * 100)}%`;
    const cpuOf = (xs: number[]) => median(xs).toFixed(2);
    return [
      row(
        '13 scale-out',
        `billed cached live search, 2 API processes vs 1, Redis Cluster (3 masters) + pgbouncer, ${ACCOUNTS} accounts x ${CONNECTIONS} connections; API CPU per search ${cpuOf(cpuPerSearch.one!)} -> ${cpuOf(cpuPerSearch.two!)} ms, API processes' share of the ${cpus().length} cores ${pctOf(apiShare.one!)} -> ${pctOf(apiShare.two!)}, cores ${pctOf(busy.one!)} / ${pctOf(busy.two!)} busy`,
        perSecond(two),
        `1 API process, same run: ${perSecond(one)}`,
        `${ratio.toFixed(2)} (goal >= ${GOAL} on 2 cores, all busy with 1 process; towards 2 with idle cores)`,
        ratio >= GOAL,
      ),
    ];
  } finally {
    await Promise.all(apis.map((p) => p.kill('SIGTERM')));
    await admin.close();
    await replay.close();
    await bouncer.stop();
    await cluster.stop();
    await db.drop();
  }
}

await scenarioMain(import.meta.url, run);
