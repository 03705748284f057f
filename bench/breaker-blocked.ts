/**
 * The circuit breaker under a platform that blocks some of its answers: the replay upstream
 * answers 30% of booking's requests with a challenge page (`--blocked-rate 0.3`) in three windows of 20 s while
 * four live accounts search booking alone, 8 searches per second each (32 legs per second, each
 * with new dates so none comes from cache). The breaker runs with its default settings.
 *
 * Counted per leg from `meta.platformResults` and `meta.warnings`: answered, blocked (tried), and
 * refused untried by an open breaker. A platform answering 70% of calls should stay in use: the
 * goal is that no leg is refused untried. Then the same load with booking blocking every request,
 * where the breaker must open (refused legs > 0).
 *   npx tsx bench/breaker-blocked.ts        (needs PostgreSQL at TEST_DATABASE_URL or 127.0.0.1:5432)
 */
import { NO_FAULTS } from '../src/replay/server.js';
import { replayLiveConfig, startReplayUpstream } from '../test/support/replay-upstream.js';
import { bearer, load, progress, row, scenarioMain, startBenchApp, type Row } from './support.js';

const ACCOUNTS = 4;
const RATE_PER_ACCOUNT = 8;
const SECONDS = 20;
const ROUNDS = 3;

interface LegCounts {
  legs: number;
  ok: number;
  blocked: number;
  refused: number;
  other: number;
}

interface Body {
  meta?: { platformResults: { platform: string; status: string; error?: string }[]; warnings: { code: string; message: string; platform?: string }[] };
  error?: { message: string };
}

/** A leg the breaker refused: the reason code when the service gives one, else its warning's wording. */
function refusedUntried(body: Body): boolean {
  const leg = body.meta?.platformResults.find((r) => r.platform === 'booking');
  if (leg?.error !== undefined) return leg.error === 'circuit_open';
  if (body.meta) return /circuit breaker is open/.test(body.meta.warnings.map((w) => w.message).join(' '));
  // A search whose only leg failed is a 503 naming each leg's status; with only challenge pages
  // injected upstream, a booking leg that "failed" (rather than "blocked") was never tried.
  return /circuit|booking: failed/.test(body.error?.message ?? '');
}

function count(bodies: string[]): LegCounts {
  const c: LegCounts = { legs: 0, ok: 0, blocked: 0, refused: 0, other: 0 };
  for (const raw of bodies) {
    c.legs++;
    let body: Body;
    try {
      body = JSON.parse(raw) as Body;
    } catch {
      c.other++; // no answer at all (a connection error): counted apart
      continue;
    }
    const status = body.meta?.platformResults.find((r) => r.platform === 'booking')?.status ?? (/booking: blocked/.test(body.error?.message ?? '') ? 'blocked' : 'error');
    if (refusedUntried(body)) c.refused++;
    else if (status === 'ok' || status === 'empty') c.ok++;
    else if (status === 'blocked') c.blocked++;
    else c.other++;
  }
  return c;
}

/** A future stay starting `n` days after 2031-01-01: a new cache key per call. */
function dates(n: number): string {
  const day = (d: number) => new Date(Date.UTC(2031, 0, 1 + (d % 3000))).toISOString().slice(0, 10);
  return `checkIn=${day(n)}&checkOut=${day(n + 2)}`;
}

export async function run(): Promise<Row[]> {
  const upstream = await startReplayUpstream();
  const replay = upstream.server;
  const app = await startBenchApp({
    config: {
      live: replayLiveConfig(upstream.url, { timeoutMs: 10_000, retries: 2, concurrency: 8 }),
    },
  });
  let n = 0;
  try {
    const keys = await Promise.all(Array.from({ length: ACCOUNTS }, () => app.newKey('live', { plan: 'enterprise', credits: 1_000_000_000 })));
    const phase = async (blockedRate: number): Promise<LegCounts> => {
      replay.faults.set('booking', { ...NO_FAULTS, delayMs: 50, jitterMs: 50, blockedRate });
      const perAccount = RATE_PER_ACCOUNT * SECONDS;
      const results = await Promise.all(
        keys.map(({ key }) =>
          load({
            kind: 'paced',
            rate: RATE_PER_ACCOUNT,
            count: perAccount,
            bodies: true,
            url: '',
            urls: Array.from({ length: perAccount }, () => `${app.baseUrl}/v1/search?location=Lisbon&platforms=booking&${dates(n++)}`),
            headers: bearer(key),
          }),
        ),
      );
      const statuses: Record<string, number> = {};
      for (const r of results) for (const [k, v] of Object.entries(r.statuses)) statuses[k] = (statuses[k] ?? 0) + v;
      progress(`statuses ${JSON.stringify(statuses)}`);
      return count(results.flatMap((r) => r.bodies ?? []));
    };
    // A breaker that opens on a run of failures opens at random moments under a steady blocked
    // rate: several windows show how often.
    const rounds: LegCounts[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      progress(`round ${i + 1}: booking blocking 30% for ${SECONDS} s, ${ACCOUNTS} accounts at ${RATE_PER_ACCOUNT}/s each`);
      rounds.push(await phase(0.3));
      progress(JSON.stringify(rounds[i]));
    }
    const partly = rounds.reduce((a, c) => ({ legs: a.legs + c.legs, ok: a.ok + c.ok, blocked: a.blocked + c.blocked, refused: a.refused + c.refused, other: a.other + c.other }));
    // Let a breaker the first phase may have opened close again before the second.
    replay.faults.set('booking', NO_FAULTS);
    await new Promise((r) => setTimeout(r, 12_000));
    progress(`booking blocking 100% for ${SECONDS} s`);
    const fully = await phase(1);
    progress(JSON.stringify(fully));
    const share = (c: LegCounts) => `${c.refused} of ${c.legs} legs refused untried (${c.ok} answered, ${c.blocked} blocked)`;
    return [
      row('breaker', `booking 30% blocked, ${ROUNDS} windows of 20 s: legs refused untried`, `${rounds.map((r) => r.refused).join(' / ')}; ${share(partly)}`, 'goal 0', '-', partly.refused === 0),
      row('breaker', 'booking 100% blocked, 20 s: legs refused untried', share(fully), 'goal > 0 (opens)', '-', fully.refused > 0),
    ];
  } finally {
    await app.close();
    await upstream.close();
  }
}

await scenarioMain(import.meta.url, run);
