import pg from 'pg';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMigrations } from '../../src/app/database-setup.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { runCli, type CliResult } from '../support/cli-process.js';
import { startPgbouncer, type Pgbouncer } from '../support/pgbouncer.js';
import { replayLiveConfig, startReplayUpstream, type ReplayUpstream } from '../support/replay-upstream.js';

/**
 * Issue 28 item 2: DATABASE_URL at pgbouncer in transaction mode (a pool of 5 server connections,
 * no prepared statements kept, `options` refused), DATABASE_DIRECT_URL straight at PostgreSQL for
 * what needs a session. The service, its job worker and the admin CLI all work through it.
 */
const MIGRATION_LOCK = 7_311_942;

let bouncer: Pgbouncer;
let replay: ReplayUpstream;
let app: TestApp;
beforeAll(async () => {
  bouncer = await startPgbouncer();
  replay = await startReplayUpstream();
  app = await startTestApp({
    worker: true,
    viaPooler: bouncer.urlFor,
    config: { legDeadlineMs: 5_000, live: replayLiveConfig(replay.url, { timeoutMs: 5_000, retries: 0, concurrency: 16 }) },
  });
});
afterAll(async () => {
  await app?.close();
  await replay?.close();
  await bouncer?.stop();
});

interface Envelope {
  data: { status?: string } & Record<string, unknown>;
  meta: { creditsCharged: number };
}

let day = 0;
/** A two-platform live search with dates of its own: never from cache. */
function searchPath(): string {
  const d = (n: number) => new Date(Date.UTC(2029, 0, 1 + n)).toISOString().slice(0, 10);
  day += 3;
  return `/v1/search?location=Lisbon&platforms=airbnb,booking&checkIn=${d(day)}&checkOut=${d(day + 2)}`;
}

async function ledgerOf(accountId: string): Promise<{ sum: number; rows: number; holds: number }> {
  const [row] = await app.sql<{ sum: string; n: string }[]>`select coalesce(sum(amount), 0)::text as sum, count(*)::text as n from credit_ledger where account_id = ${accountId} and entry_key like 'req:%'`;
  const [holds] = await app.sql<{ n: string }[]>`select count(*)::text as n from credit_holds where account_id = ${accountId}`;
  return { sum: Number(row!.sum), rows: Number(row!.n), holds: Number(holds!.n) };
}

describe('behind pgbouncer in transaction mode', () => {
  it("the service's pool reaches PostgreSQL through pgbouncer, with the server settings pgbouncer sets", async () => {
    const { rows } = await app.deps.db.execute<{ lock_timeout: string; port: string }>(sql`select current_setting('lock_timeout') as lock_timeout, current_setting('port') as port`);
    expect(rows[0]!.lock_timeout).toBe('5s');
    // The pool was handed the pooler's URL; pgbouncer would have refused the `options` we send directly.
    expect(new URL(app.deps.config.databaseDirectUrl!).port).toBe(rows[0]!.port);
    expect(bouncer.port).not.toBe(Number(rows[0]!.port));
  });

  it('a billed live search debits once, and an Idempotency-Key repeat replays without a second debit', async () => {
    const { key, accountId } = await app.newKey('live', { plan: 'scale', credits: 100 });
    const path = searchPath();
    const first = await app.get(path, key, { 'Idempotency-Key': 'pgbouncer-1' });
    expect(first.status).toBe(200);
    const charged = ((await first.json()) as Envelope).meta.creditsCharged;
    expect(charged).toBeGreaterThan(0);
    const again = await app.get(path, key, { 'Idempotency-Key': 'pgbouncer-1' });
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const ledger = await ledgerOf(accountId);
    expect(ledger).toEqual({ sum: -charged, rows: 1, holds: 0 });
    expect(await app.balanceOf(accountId)).toBe(100 - charged);
  });

  it('parallel calls on a small balance: credit holds keep the ledger exact through the pool', async () => {
    const { key, accountId } = await app.newKey('live', { plan: 'enterprise', credits: 40 });
    const answers = await Promise.all(Array.from({ length: 20 }, () => app.get(searchPath(), key)));
    const statuses = answers.map((r) => r.status);
    expect(statuses.every((s) => s === 200 || s === 402)).toBe(true);
    const paid = statuses.filter((s) => s === 200).length;
    expect(paid).toBeGreaterThan(0);
    const ledger = await ledgerOf(accountId);
    expect(ledger.rows).toBe(paid);
    expect(ledger.holds).toBe(0);
    const balance = await app.balanceOf(accountId);
    expect(balance).toBe(40 + ledger.sum);
    expect(balance).toBeGreaterThanOrEqual(0);
  });

  it('a sandbox:async job runs on the worker and a long poll (Prefer: wait) hears it end', async () => {
    const { key } = await app.newKey('sandbox');
    const res = await app.get('/v1/search?location=sandbox:async&platforms=airbnb,booking', key, { Prefer: 'respond-async, wait=15' });
    expect(res.status).toBe(200);
    expect(res.headers.get('preference-applied')).toBe('wait=15');
  });

  it("migrations through pgbouncer leave no advisory lock behind on the pool's server connections", async () => {
    // A session lock (pg_advisory_lock) outlived its client here: held by an idle server
    // connection back in the pool, the next migrating process waited on it forever.
    await runMigrations(bouncer.urlFor(app.db.url));
    const [row] = await app.sql<{ n: string }[]>`select count(*)::text as n from pg_locks where locktype = 'advisory' and objid = ${MIGRATION_LOCK}`;
    expect(row!.n).toBe('0');
  });

  it('the admin CLI with DATABASE_URL at pgbouncer completes its commands while other clients use the pool', async () => {
    // Another client of the pool mid-transaction, as a running service is: it holds a server connection.
    const busy = new pg.Client({ connectionString: bouncer.urlFor(app.db.url) });
    await busy.connect();
    await busy.query('begin');
    // Kept busy so that neither the server's idle_in_transaction_session_timeout nor a slow CI ends it.
    const keepAlive = setInterval(() => void busy.query('select 1').catch(() => {}), 2_000);
    try {
      const created = await cli('account', 'create', '--email', 'pooled@example.com', '--plan', 'pro', '--credits', '50');
      expect(created.code, created.stderr).toBe(0);
      const { accountId } = JSON.parse(created.stdout) as { accountId: string };
      for (const args of [
        ['key', 'create', '--account', accountId, '--env', 'live'],
        ['credits', 'grant', '--account', accountId, '--amount', '25'],
        ['usage', '--account', accountId],
        ['jobs', 'list', '--account', accountId],
      ]) {
        const result = await cli(...args);
        expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(0);
      }
      expect(await app.balanceOf(accountId)).toBe(75);
    } finally {
      clearInterval(keepAlive);
      await busy.query('commit');
      await busy.end();
    }
  });

  it('without DATABASE_DIRECT_URL the refusal names the setting to add, at once', async () => {
    const result = await runCli({ DATABASE_URL: bouncer.urlFor(app.db.url) }, 'usage', '--account', 'acct_01M8APPX0J76VM4QMPTDPP4RAH');
    expect(result.code).toBe(1);
    const { error } = JSON.parse(result.stderr) as { error: { code: string; message: string; hint: string } };
    expect(error.code).toBe('invalid_setting');
    expect(error.message).toContain('unsupported startup parameter');
    expect(error.hint).toContain('DATABASE_DIRECT_URL');
  });
});

/** The admin CLI through pgbouncer, with the direct URL for what needs a session. */
function cli(...args: string[]): Promise<CliResult> {
  return runCli({ DATABASE_URL: bouncer.urlFor(app.db.url), DATABASE_DIRECT_URL: app.db.url }, ...args);
}
