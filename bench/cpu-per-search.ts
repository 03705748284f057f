/**
 * 9. CPU time of the service per cached sandbox search, beyond what a bare node:http handler
 * spends answering the same bytes. The load generator runs in a child process, so
 * `process.cpuUsage()` of this process is the service's own work (user + system, both threads
 * of libuv included): unlike wall-clock figures it barely moves when other processes share the
 * cores. Rounds alternate service and bare; the medians per request are compared. Goal: <= 0.08 ms (issue 29).
 * The same search as an MCP `tools/call` and a `/trpc` query is measured in the same rounds, as
 * CPU per call and its ratio to REST's: how much each face adds to one definition. MCP's goal
 * (issue 29): REST CPU / MCP CPU >= 0.70 for the call as clients send it today (legacy era, after
 * initialize); the modern era (2026-07-28, SDK 2.x) and /trpc ratios are informative.
 *   npx tsx bench/cpu-per-search.ts        (needs PostgreSQL at TEST_DATABASE_URL or 127.0.0.1:5432)
 */
import { bearer, capture, mcpModernToolCall, mcpToolCall, expectStatuses, interleave, loadFromChild, median, ms, progress, row, scenarioMain, startBare, startBenchApp, type LoadTarget, type Row } from './support.js';
import { SEARCH_PATH } from './rest-throughput.js';

const ROUNDS = 5;
const REQUESTS = 4_000;
const CONNECTIONS = 10;
/** Our CPU beyond a bare handler per cached search: 0.25 ms for issue 15, 0.08 ms for issue 29. */
const GOAL_MS = 0.08;
/** REST's CPU over MCP's for the same cached search (issue 29: agents at REST's cost). */
const MCP_GOAL = 0.7;

/** Milliseconds of this process's CPU per successful request of one fixed-size load run. */
async function cpuPerRequest(target: LoadTarget, what: string): Promise<number> {
  const before = process.cpuUsage();
  const result = expectStatuses(await loadFromChild({ kind: 'throughput', connections: CONNECTIONS, durationMs: 0, amount: REQUESTS, ...target }), '200', what);
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000 / result.requests;
}

export async function run(): Promise<Row[]> {
  const app = await startBenchApp();
  try {
    const { key } = await app.newKey('sandbox');
    const rest: LoadTarget = { url: `${app.baseUrl}${SEARCH_PATH}`, headers: bearer(key) };
    const sample = await capture(rest.url, { headers: bearer(key) });
    if (sample.status !== 200) throw new Error(`search answered ${sample.status}: ${sample.body.toString()}`);
    const bare = await startBare(sample);
    try {
      const baseline: LoadTarget = { url: `${bare.url}${SEARCH_PATH}`, headers: bearer(key) };
      const mcp = mcpToolCall(app.baseUrl, key, 'search_stays', { location: 'Lisbon', limit: 20 });
      const mcpModern = mcpModernToolCall(app.baseUrl, key, 'search_stays', { location: 'Lisbon', limit: 20 });
      const trpc: LoadTarget = { url: `${app.baseUrl}/trpc/search?input=${encodeURIComponent(JSON.stringify({ location: 'Lisbon', limit: 20 }))}`, headers: bearer(key) };
      await cpuPerRequest(rest, 'REST search (warm-up)');
      await cpuPerRequest(baseline, 'bare handler (warm-up)');
      await cpuPerRequest(mcp, 'MCP tools/call (warm-up)');
      await cpuPerRequest(mcpModern, 'modern MCP tools/call (warm-up)');
      await cpuPerRequest(trpc, '/trpc query (warm-up)');
      // REST against bare first, in rounds of their own: the other faces' garbage is not collected
      // during (and counted in) REST's rounds. Then the faces, with REST again for their ratios.
      const results = await interleave(ROUNDS, { rest: () => cpuPerRequest(rest, 'REST search'), bare: () => cpuPerRequest(baseline, 'bare handler') });
      Object.assign(results, await interleave(ROUNDS, { mcp: () => cpuPerRequest(mcp, 'MCP tools/call'), trpc: () => cpuPerRequest(trpc, '/trpc query'), restAgain: () => cpuPerRequest(rest, 'REST search') }));
      // The modern era in rounds of its own: its garbage (about three times MCP's) is not collected in the goal's rounds.
      const modern = await interleave(ROUNDS, { mcpModern: () => cpuPerRequest(mcpModern, 'modern MCP tools/call'), restModern: () => cpuPerRequest(rest, 'REST search') });
      const round = (xs: number[]) => xs.map((x) => x.toFixed(3)).join(', ');
      progress(`cpu-per-search: REST ${round(results.rest!)} ms; bare ${round(results.bare!)} ms; REST again ${round(results.restAgain!)} ms; MCP ${round(results.mcp!)} ms; modern MCP ${round(modern.mcpModern!)} ms (REST ${round(modern.restModern!)} ms); /trpc ${round(results.trpc!)} ms per request`);
      const [ours, bareMs, mcpMs, trpcMs, restAgain] = [median(results.rest!), median(results.bare!), median(results.mcp!), median(results.trpc!), median(results.restAgain!)];
      const [modernMs, restModern] = [median(modern.mcpModern!), median(modern.restModern!)];
      const beyond = ours - bareMs;
      // As a throughput ratio to REST would be if CPU were the only limit: REST's CPU over the face's.
      const ratio = (faceMs: number, goal?: number, restMs = restAgain) => `${(restMs / faceMs).toFixed(3)} of REST (REST CPU / face CPU; ${goal === undefined ? 'informative' : `goal >= ${goal.toFixed(2)}`})`;
      return [
        row('9 CPU per search', `service CPU per cached sandbox search over REST (${sample.body.length} B body), ${REQUESTS} requests`, ms(ours), `bare node:http, same bytes: ${ms(bareMs)}`, `${ms(beyond)} beyond bare (goal <= ${GOAL_MS} ms)`, beyond <= GOAL_MS),
        row('9 CPU per search', `the same search as MCP tools/call (search_stays, legacy era, JSON response), ${REQUESTS} calls`, ms(mcpMs), `REST, same rounds: ${ms(restAgain)}`, ratio(mcpMs, MCP_GOAL), restAgain / mcpMs >= MCP_GOAL),
        row('9 CPU per search', `the same search as a modern-era (2026-07-28) MCP tools/call, ${REQUESTS} calls`, ms(modernMs), `REST, same rounds: ${ms(restModern)}`, ratio(modernMs, undefined, restModern), true),
        row('9 CPU per search', `the same search as a /trpc query, ${REQUESTS} calls`, ms(trpcMs), `REST, same rounds: ${ms(restAgain)}`, ratio(trpcMs), true),
      ];
    } finally {
      await bare.close();
    }
  } finally {
    await app.close();
  }
}

await scenarioMain(import.meta.url, run);
