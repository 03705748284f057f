/**
 * 8. The same cached sandbox search through the other two faces, as throughput ratios to REST:
 * an MCP `tools/call` of search_stays (API key as bearer, JSON response) and a `/trpc/search`
 * query, each driven by autocannon at the same concurrency, in rounds alternating with REST. One
 * definition of the operation serves all three, so the ratios show what each face adds.
 *   npx tsx bench/faces-throughput.ts        (needs PostgreSQL at TEST_DATABASE_URL or 127.0.0.1:5432)
 */
import { bearer, capture, expectStatuses, interleave, load, mcpToolCall, median, perSecond, progress, row, scenarioMain, startBenchApp, type LoadTarget, type Row } from './support.js';
import { SEARCH_PATH } from './rest-throughput.js';

const ROUNDS = 5;
const DURATION_MS = 2_500;
const CONNECTIONS = 10;

export async function run(): Promise<Row[]> {
  const app = await startBenchApp();
  try {
    const { key } = await app.newKey('sandbox');
    const rest: LoadTarget = { url: `${app.baseUrl}${SEARCH_PATH}`, headers: bearer(key) };
    const mcp = mcpToolCall(app.baseUrl, key, 'search_stays', { location: 'Lisbon', limit: 20 });
    const trpc: LoadTarget = { url: `${app.baseUrl}/trpc/search?input=${encodeURIComponent(JSON.stringify({ location: 'Lisbon', limit: 20 }))}`, headers: bearer(key) };
    for (const [name, t] of Object.entries({ rest, mcp, trpc })) {
      const sample = await capture(t.url, { method: t.method ?? 'GET', headers: t.headers!, ...(t.body ? { body: t.body } : {}) });
      const text = sample.body.toString();
      if (sample.status !== 200 || text.includes('"isError":true')) throw new Error(`${name} search answered ${sample.status}: ${text.slice(0, 300)}`);
    }
    const job = { kind: 'throughput', connections: CONNECTIONS, durationMs: DURATION_MS } as const;
    for (const t of [rest, mcp, trpc]) await load({ ...job, durationMs: 1_000, ...t }); // warm-up
    const results = await interleave(ROUNDS, {
      rest: async () => expectStatuses(await load({ ...job, ...rest }), '200', 'REST search').rps,
      mcp: async () => expectStatuses(await load({ ...job, ...mcp }), '200', 'MCP search_stays').rps,
      trpc: async () => expectStatuses(await load({ ...job, ...trpc }), '200', 'tRPC search').rps,
    });
    const round = (xs: number[]) => xs.map(Math.round).join(', ');
    progress(`faces-throughput: REST ${round(results.rest!)}; MCP ${round(results.mcp!)}; tRPC ${round(results.trpc!)} req/s`);
    const [restRps, mcpRps, trpcRps] = [median(results.rest!), median(results.mcp!), median(results.trpc!)];
    const scenario = '8 faces throughput';
    return [
      row(scenario, `cached search as MCP tools/call, ${CONNECTIONS} connections`, perSecond(mcpRps), `REST: ${perSecond(restRps)}`, `${(mcpRps / restRps).toFixed(3)} of REST (informative)`, true),
      row(scenario, `cached search as /trpc query, ${CONNECTIONS} connections`, perSecond(trpcRps), `REST: ${perSecond(restRps)}`, `${(trpcRps / restRps).toFixed(3)} of REST (informative)`, true),
    ];
  } finally {
    await app.close();
  }
}

await scenarioMain(import.meta.url, run);
