/**
 * The developer console's account-wide reads at a million ledger rows: 30-day usage per day split
 * by operation and by platform, and the 50 newest billed requests with and without filters
 * (operation, a rarely used platform, the rare 'partial' outcome). Two accounts among 1,000: a
 * typical one (~900 rows) and a heavy one holding a tenth of the ledger (100,000 rows). Baseline:
 * the same query with migration 0013's billed indexes swapped back for the (account_id,
 * created_at) index of 0012. Medians over rounds alternating both sides.
 *   npx tsx bench/console-usage.ts     (needs PostgreSQL at TEST_DATABASE_URL or 127.0.0.1:5432; a few minutes)
 */
import postgres from 'postgres';
import { connect } from '../src/adapters/postgres/db.js';
import { createConsoleUsage } from '../src/adapters/postgres/console/console-usage.js';
import { createTestDatabase } from '../test/support/db.js';

const ACCOUNTS = 1_000;
const ROWS = 1_000_000;
const ROUNDS = 3;
const CALLS = 10;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < CALLS; i++) await fn();
  return (performance.now() - start) / CALLS;
}

const db = await createTestDatabase();
const sql = postgres(db.url, { max: 1, onnotice: () => {} });
const database = connect(db.url, 2);
const BILLED = `amount < 0 and (entry_key like 'req:%' or entry_key like 'job:%')`;
const INDEXES_0013 = [
  `create index credit_ledger_billed_idx on credit_ledger (account_id, created_at desc, id desc) include (amount, reason) where ${BILLED}`,
  `create index credit_ledger_billed_operation_idx on credit_ledger (account_id, reason, created_at desc, id desc) where ${BILLED}`,
  `create index credit_ledger_billed_partial_idx on credit_ledger (account_id, created_at desc, id desc) where ${BILLED} and status = 'partial'`,
];
async function useIndexes(which: '0012' | '0013'): Promise<void> {
  if (which === '0012') {
    await sql`drop index credit_ledger_billed_idx, credit_ledger_billed_operation_idx, credit_ledger_billed_partial_idx`;
    await sql`create index credit_ledger_account_created_idx on credit_ledger (account_id, created_at)`;
  } else {
    await sql`drop index credit_ledger_account_created_idx`;
    for (const ddl of INDEXES_0013) await sql.unsafe(ddl);
  }
  await sql`vacuum analyze credit_ledger`;
}
try {
  const seedStart = performance.now();
  await sql`insert into accounts (id, email, plan) select 'acct_' || g, 'u' || g || '@example.com', 'pro' from generate_series(1, ${ACCOUNTS}) g`;
  // Rows over 60 days, interleaved across accounts as real traffic would be; acct_1 has every
  // tenth row. Searches ask two or three platforms; tripadvisor appears in 1 row of 100 and the
  // 'partial' outcome in 1 of 20; one row in 50 is a grant (not usage). h spreads the traits
  // independently of the account (g % 10).
  await sql`
    insert into credit_ledger (account_id, entry_key, amount, balance_after, reason, created_at, platforms, platform_credits, status)
    select case when g % 10 = 0 then 'acct_1' else 'acct_' || (g % ${ACCOUNTS - 1} + 2) end,
           case when h % 50 = 0 then 'grant:' || g else 'req:req_' || g end,
           case when h % 50 = 0 then 100 else -(2 + h % 6) end, 0,
           (array['search','price','reviews','availability','listing','priceCompare'])[1 + h / 7 % 6],
           now() - (g % 86400 * 60 || ' seconds')::interval,
           case when h % 100 = 7 then array['airbnb','tripadvisor'] when h % 3 = 0 then array['airbnb','booking','vrbo'] else array['booking','google'] end,
           case when h % 100 = 7 then array[1, 1 + h % 6] when h % 3 = 0 then array[1, 1, h % 6] else array[1, 1 + h % 6] end,
           case when h / 11 % 20 = 3 then 'partial' else 'complete' end
    from generate_series(1, ${ROWS}) g, lateral (select (g::bigint * 2654435761) % 1000003 as h) spread`;
  // The ledger is append-only: autovacuum keeps its visibility map set, as here.
  await sql`vacuum analyze credit_ledger`;
  const seedSeconds = (performance.now() - seedStart) / 1000;

  const usage = createConsoleUsage(database.db);
  const since = new Date(Date.now() - 30 * 86_400_000);
  const none = { operation: null, platform: null, status: null };
  const [{ count }] = await sql<[{ count: string }]>`select count(*)::text as count from credit_ledger`;
  const perAccount = await sql<{ account_id: string; n: string }[]>`select account_id, count(*)::text as n from credit_ledger where account_id in ('acct_1', 'acct_42') group by 1 order by 1`;
  console.log(`ledger rows: ${count} (${ACCOUNTS} accounts; ${perAccount.map((r) => `${r.account_id} ${r.n}`).join(', ')}); seeded in ${seedSeconds.toFixed(1)} s`);
  for (const account of ['acct_42', 'acct_1']) {
    const subjects = {
      'usage by operation': () => usage.byOperation(account, since),
      'usage by platform': () => usage.byPlatform(account, since),
      'requests, newest 50': () => usage.billedRequests(account, none, 50),
      'requests, operation=price': () => usage.billedRequests(account, { ...none, operation: 'price' }, 50),
      'requests, platform=tripadvisor': () => usage.billedRequests(account, { ...none, platform: 'tripadvisor' }, 50),
      // The worst case: a platform the account never used walks all its billed rows.
      'requests, platform=expedia': () => usage.billedRequests(account, { ...none, platform: 'expedia' }, 50),
      'requests, status=partial': () => usage.billedRequests(account, { ...none, status: 'partial' }, 50),
    };
    for (const [name, fn] of Object.entries(subjects)) {
      const withIndex: number[] = [];
      const without: number[] = [];
      await fn(); // warm
      for (let round = 0; round < ROUNDS; round++) {
        withIndex.push(await timed(fn));
        await useIndexes('0012');
        without.push(await timed(fn));
        await useIndexes('0013');
      }
      const a = median(withIndex);
      const b = median(without);
      console.log(`${account.padEnd(8)} ${name.padEnd(31)} 0013 indexes ${a.toFixed(2).padStart(7)} ms   0012 index ${b.toFixed(2).padStart(7)} ms   ratio ${(b / a).toFixed(2)}x`);
    }
  }
} finally {
  await database.close();
  await sql.end();
  await db.drop();
}
