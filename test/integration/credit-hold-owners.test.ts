import postgres from 'postgres';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDeps, type Deps } from '../../src/deps.js';
import { replayLiveConfig, startReplayUpstream, type ReplayUpstream } from '../support/replay-upstream.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';

/**
 * Issue 35, item 2: credit holds live with the process that took them. The heartbeat's rule
 * (beat_credit_hold_owner, drizzle/0018) on a database no process beats in, so every time is the
 * test's own; then a living process's slow call kept past the staleness window, with another
 * living process judging it.
 */
describe('beat_credit_hold_owner', () => {
  let db: TestDatabase;
  let sql: postgres.Sql;
  const WINDOW_MS = 10_000;

  beforeAll(async () => {
    db = await createTestDatabase();
    sql = postgres(db.url, { max: 2, onnotice: () => {} });
    await sql`insert into accounts (id, email, credit_balance) values ('acct_1', 'owners@example.com', 100)`;
  });
  beforeEach(async () => {
    await sql`delete from credit_holds`;
    await sql`delete from credit_hold_owners`;
  });
  afterAll(async () => {
    await sql?.end();
    await db?.drop();
  });

  const owner = (id: string, beatSecondsAgo: number, beatingForSeconds: number) =>
    sql`insert into credit_hold_owners (id, heartbeat_at, beating_since) values (${id}, now() - make_interval(secs => ${beatSecondsAgo}), now() - make_interval(secs => ${beatingForSeconds}))`;
  const hold = (id: string, processId: string | null) =>
    sql`insert into credit_holds (id, account_id, amount, expires_at, process_id) values (${id}, 'acct_1', 10, now() + interval '1 hour', ${processId})`;
  const beat = async (id: string) => (await sql<{ released: number }[]>`select beat_credit_hold_owner(${id}, ${WINDOW_MS}) as released`)[0]!.released;
  const holds = async () => (await sql<{ id: string }[]>`select id from credit_holds order by id`).map((r) => r.id);
  const owners = async () => (await sql<{ id: string }[]>`select id from credit_hold_owners order by id`).map((r) => r.id);

  it("releases the holds of a process silent past the window, and nobody else's", async () => {
    await owner('proc_dead', 60, 600);
    await owner('proc_alive', 0, 600);
    await owner('proc_judge', 1, 600);
    await hold('req:dead-1', 'proc_dead');
    await hold('req:dead-2', 'proc_dead');
    await hold('req:alive', 'proc_alive');
    await hold('job:queued', null); // a job's hold lives with its job, not with a process
    await hold('req:unknown-owner', 'proc_unknown'); // a previous release's process: only its expiry ends it
    expect(await beat('proc_judge')).toBe(2);
    expect(await holds()).toEqual(['job:queued', 'req:alive', 'req:unknown-owner']);
    expect(await owners()).toEqual(['proc_alive', 'proc_judge']);
  });

  it('lets a process judge others only after beating without a gap for a whole window', async () => {
    await owner('proc_dead', 60, 600);
    await hold('req:dead', 'proc_dead');
    // Just started: it has not seen a window in which the other could have beaten.
    expect(await beat('proc_new')).toBe(0);
    // Back after a gap longer than half the window (the database was out for everyone): its run starts again.
    await owner('proc_back', 8, 600);
    expect(await beat('proc_back')).toBe(0);
    expect(await holds()).toEqual(['req:dead']);
    const [back] = await sql<{ fresh: boolean }[]>`select beating_since > now() - interval '1 second' as fresh from credit_hold_owners where id = 'proc_back'`;
    expect(back!.fresh).toBe(true);
    // A whole window of beats later, the silent one is judged dead.
    await sql`update credit_hold_owners set beating_since = now() - interval '11 seconds' where id = 'proc_new'`;
    expect(await beat('proc_new')).toBe(1);
    expect(await holds()).toEqual([]);
  });
});

describe("a living process's slow call", () => {
  const TIMING = { heartbeatMs: 250, staleAfterMs: 1_500 };
  const SLOW_MS = 15_000; // more than three windows, with room for a loaded machine
  let replay: ReplayUpstream;
  let app: TestApp;
  let otherProcess: Deps;

  beforeAll(async () => {
    replay = await startReplayUpstream();
    const live = replayLiveConfig(replay.url, { timeoutMs: 30_000, retries: 0, concurrency: 64 });
    app = await startTestApp({ config: { legDeadlineMs: 30_000, asyncThresholdMs: 600_000, creditHolds: TIMING, live } });
    // A second living process on the same database, beating and judging with the same window.
    otherProcess = createDeps(app.deps.config, app.db.url);
  });
  afterAll(async () => {
    await otherProcess?.close();
    await app?.close();
    await replay?.close();
  });

  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  let day = 0;
  const search = (key: string) => {
    const d = (n: number) => new Date(Date.UTC(2030, 0, 1 + n)).toISOString().slice(0, 10);
    day += 3;
    return app.get(`/v1/search?location=Lisbon&platforms=airbnb,booking,vrbo,google&checkIn=${d(day)}&checkOut=${d(day + 2)}`, key);
  };

  it('keeps its hold past the staleness window and settles it exactly once', async () => {
    const { key, accountId } = await app.newKey('live', { plan: 'enterprise', credits: 20 });
    await fetch(`${replay.url}/__replay`, { method: 'POST', body: JSON.stringify({ delayMs: SLOW_MS }) });
    const slow = search(key);
    const heldBy = async () => app.sql<{ process_id: string; amount: string }[]>`select process_id, amount::text from credit_holds where account_id = ${accountId}`;
    for (const until = Date.now() + 10_000; (await heldBy()).length === 0; await sleep(50)) {
      if (Date.now() > until) throw new Error('the slow call never held its credits');
    }
    // Two windows of the other process's beats, each of which would release a silent process's holds.
    let released = 0;
    for (const until = Date.now() + 2 * TIMING.staleAfterMs; Date.now() < until; await sleep(TIMING.heartbeatMs)) released += await otherProcess.holdOwner!.beat();
    expect(released).toBe(0);
    expect(await heldBy()).toEqual([{ process_id: app.deps.holdOwner!.id, amount: '20' }]);
    expect((await search(key)).status).toBe(402);

    const res = await slow;
    expect(res.status).toBe(200);
    const charged = ((await res.json()) as { meta: { creditsCharged: number } }).meta.creditsCharged;
    expect(charged).toBeGreaterThan(0);
    const debits = await app.sql<{ amount: string }[]>`select amount::text from credit_ledger where account_id = ${accountId} and amount < 0`;
    expect(debits.map((d) => Number(d.amount))).toEqual([-charged]);
    expect(await app.balanceOf(accountId)).toBe(20 - charged);
    expect(await heldBy()).toEqual([]);
  }, 60_000);
});
