/**
 * 3. Latency at a fixed, moderate rate (200 requests per second, open loop): a cached sandbox
 * search over REST, the same search as an MCP tools/call of search_stays (API key as bearer, JSON
 * response), and a bare node:http handler answering the REST bytes, in alternating rounds.
 * Goals: REST p50 <= 3 ms and p99 <= 15 ms; MCP adds <= 2 ms at p50.
 *   npx tsx bench/overhead.ts        (needs PostgreSQL at TEST_DATABASE_URL or 127.0.0.1:5432)
 */
import { bearer, capture, expectStatuses, interleave, load, mcpToolCall, median, ms, pct, progress, row, scenarioMain, startBare, startBenchApp, type LoadTarget, type Row } from './support.js';

const ROUNDS = 7;
const RATE = 200;
const PER_ROUND = 300; // 1.5 s at 200/s
const PATH = '/v1/search?location=Lisbon&limit=20';

export async function run(): Promise<Row[]> {
  const app = await startBenchApp();
  try {
    const { key } = await app.newKey('sandbox');
    const rest: LoadTarget = { url: `${app.baseUrl}${PATH}`, headers: bearer(key) };
    const mcp = mcpToolCall(app.baseUrl, key, 'search_stays', { location: 'Lisbon', limit: 20 });
    const sample = await capture(rest.url, { headers: rest.headers! });
    if (sample.status !== 200) throw new Error(`search answered ${sample.status}`);
    const mcpSample = await capture(mcp.url, { method: 'POST', headers: mcp.headers!, body: mcp.body! });
    const mcpText = mcpSample.body.toString();
    if (mcpSample.status !== 200 || !mcpText.includes('"structuredContent"') || mcpText.includes('"isError":true')) throw new Error(`MCP call failed: ${mcpText.slice(0, 300)}`);
    const bare = await startBare(sample);
    try {
      const paced = (t: LoadTarget, count = PER_ROUND) => load({ kind: 'paced', rate: RATE, count, ...t });
      for (const t of [rest, mcp, { ...rest, url: `${bare.url}${PATH}` }]) await paced(t, 100); // warm-up
      const results = await interleave(ROUNDS, {
        rest: async () => expectStatuses(await paced(rest), '200', 'REST search').latencies,
        mcp: async () => expectStatuses(await paced(mcp), '200', 'MCP search_stays').latencies,
        bare: async () => expectStatuses(await paced({ ...rest, url: `${bare.url}${PATH}` }), '200', 'bare handler').latencies,
      });
      const p = (name: string, q: number) => median(results[name]!.map((xs) => pct(xs, q)));
      progress(`overhead: REST p50 ${results.rest!.map((xs) => pct(xs, 50).toFixed(2)).join(', ')} ms; p99 ${results.rest!.map((xs) => pct(xs, 99).toFixed(2)).join(', ')} ms`);
      progress(`overhead: MCP p50 ${results.mcp!.map((xs) => pct(xs, 50).toFixed(2)).join(', ')} ms; bare p50 ${results.bare!.map((xs) => pct(xs, 50).toFixed(2)).join(', ')} ms`);
      const [restP50, restP99, mcpP50, bareP50, bareP99] = [p('rest', 50), p('rest', 99), p('mcp', 50), p('bare', 50), p('bare', 99)];
      const scenario = `3 latency at ${RATE} req/s`;
      return [
        row(scenario, 'cached sandbox search over REST, p50', ms(restP50), `bare node:http p50 ${ms(bareP50)}`, `+${ms(restP50 - bareP50)} over bare (goal p50 <= 3 ms)`, restP50 <= 3),
        row(scenario, 'cached sandbox search over REST, p99', ms(restP99), `bare node:http p99 ${ms(bareP99)}`, `+${ms(restP99 - bareP99)} over bare (goal p99 <= 15 ms)`, restP99 <= 15),
        row(scenario, 'same search as MCP tools/call, p50', ms(mcpP50), `REST p50 ${ms(restP50)}`, `+${ms(mcpP50 - restP50)} over REST (goal <= +2 ms)`, mcpP50 - restP50 <= 2),
      ];
    } finally {
      await bare.close();
    }
  } finally {
    await app.close();
  }
}

await scenarioMain(import.meta.url, run);
