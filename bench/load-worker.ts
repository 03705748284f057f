/**
 * The load generator, run in a worker thread (bench/support.ts starts it) so that the client's
 * own work does not share the event loop of the service under test. One job per worker:
 *
 * - `throughput`: autocannon, closed loop, N connections for a duration; requests per second.
 *   With `spread`, N connections to each of several targets at once (bench/scale-out.ts).
 * - `paced`: an open loop at a fixed rate (a request every 1000/rate ms whether or not earlier
 *   ones answered), each request timed with performance.now() (autocannon's histogram keeps whole
 *   milliseconds only, too coarse for millisecond goals).
 * - `sequential`: one request at a time, timed the same way.
 */
import { Agent, request } from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';

export interface LoadTarget {
  url: string;
  /** When given, request i goes to urls[i % urls.length] instead of url (e.g. a new cache key each time). */
  urls?: string[];
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
}

export type LoadJob =
  | ({ kind: 'throughput'; connections: number; durationMs: number; amount?: number; spread?: LoadTarget[] } & LoadTarget)
  | ({ kind: 'paced'; rate: number; count: number; bodies?: boolean } & LoadTarget)
  | ({ kind: 'sequential'; count: number; bodies?: boolean } & LoadTarget);

export interface LoadResult {
  /** Completed requests per second (throughput jobs). */
  rps: number;
  requests: number;
  /** Milliseconds per request, in completion order (paced and sequential jobs). */
  latencies: number[];
  /** Count of responses per status code; `error` for connection errors. */
  statuses: Record<string, number>;
  /** Response bodies, in completion order, when the job asked for them. */
  bodies?: string[];
}

type ThroughputJob = Extract<LoadJob, { kind: 'throughput' }>;

/**
 * With `spread`, one autocannon instance per target (e.g. a process, or a key of its own), each
 * with `connections` connections, all at once in this one generator; their counts are summed.
 */
async function throughput(job: ThroughputJob): Promise<LoadResult> {
  if (!job.spread) return oneTarget(job);
  const results = await Promise.all(job.spread.map((target) => oneTarget({ ...job, ...target, spread: undefined })));
  const statuses: Record<string, number> = {};
  for (const r of results) for (const [k, v] of Object.entries(r.statuses)) statuses[k] = (statuses[k] ?? 0) + v;
  return { rps: results.reduce((n, r) => n + r.rps, 0), requests: results.reduce((n, r) => n + r.requests, 0), latencies: [], statuses };
}

async function oneTarget(job: ThroughputJob): Promise<LoadResult> {
  const statuses: Record<string, number> = {};
  const { default: autocannon } = await import('autocannon'); // only here: paced jobs start lighter
  const instance = autocannon({
    url: job.url,
    method: job.method ?? 'GET',
    headers: job.headers ?? {},
    ...(job.body !== undefined ? { body: job.body } : {}),
    connections: job.connections,
    // a fixed number of requests, when given, instead of a duration
    ...(job.amount !== undefined ? { amount: job.amount } : { duration: job.durationMs / 1000 }),
    // each connection cycles through the urls' paths (same host), e.g. many distinct queries
    ...(job.urls ? { requests: job.urls.map((u) => ({ path: new URL(u).pathname + new URL(u).search })) } : {}),
  });
  instance.on('response', (_client: unknown, statusCode: number) => {
    statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
  });
  const result = await instance;
  if (result.errors) statuses.error = result.errors;
  const total = Object.entries(statuses).reduce((n, [k, v]) => (k.startsWith('2') ? n + v : n), 0);
  const seconds = job.amount !== undefined ? result.duration : job.durationMs / 1000;
  return { rps: total / seconds, requests: total, latencies: [], statuses };
}

interface Answer {
  ms: number;
  status: string;
  body: string;
}

function once(agent: Agent, t: LoadTarget, i: number, keepBody: boolean): Promise<Answer> {
  return new Promise((resolve) => {
    const started = performance.now();
    const req = request(t.urls ? t.urls[i % t.urls.length]! : t.url, { method: t.method ?? 'GET', headers: t.headers ?? {}, agent }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => {
        if (keepBody) body += c.toString();
      });
      res.on('end', () => resolve({ ms: performance.now() - started, status: String(res.statusCode), body }));
    });
    req.on('error', () => resolve({ ms: performance.now() - started, status: 'error', body: '' }));
    req.end(t.body);
  });
}

async function latencies(job: Extract<LoadJob, { kind: 'paced' | 'sequential' }>): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  const statuses: Record<string, number> = {};
  const out: number[] = [];
  const bodies: string[] = [];
  const keep = job.bodies ?? false;
  const record = (r: Answer) => {
    statuses[r.status] = (statuses[r.status] ?? 0) + 1;
    out.push(r.ms);
    if (keep) bodies.push(r.body);
  };
  if (job.kind === 'sequential') {
    for (let i = 0; i < job.count; i++) record(await once(agent, job, i, keep));
  } else {
    const interval = 1000 / job.rate;
    const start = performance.now();
    const inFlight: Promise<void>[] = [];
    for (let i = 0; i < job.count; i++) {
      const due = start + i * interval;
      const wait = due - performance.now();
      if (wait > 1) await new Promise((r) => setTimeout(r, wait));
      inFlight.push(once(agent, job, i, keep).then(record));
    }
    await Promise.all(inFlight);
  }
  agent.destroy();
  return { rps: 0, requests: out.length, latencies: out, statuses, ...(keep ? { bodies } : {}) };
}

function runJob(job: LoadJob): Promise<LoadResult> {
  return job.kind === 'throughput' ? throughput(job) : latencies(job);
}

// A worker thread gets its job as workerData; a child process (support.ts loadFromChild, used
// where the service's own CPU time is measured and the client must not share its process) by IPC.
if (parentPort) parentPort.postMessage(await runJob(workerData as LoadJob));
else if (process.send) process.once('message', (job: LoadJob) => void runJob(job).then((result) => process.send!(result, () => process.exit(0))));
