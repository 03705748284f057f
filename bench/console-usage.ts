/**
 * The developer console's account-wide reads at a million ledger rows: 30-day usage per day and
 * operation, and the 50 newest billed requests, for one account among 1,000 (1,000 rows each;
 * the ledger is one table for every account). Baseline: the same query with the
 * (account_id, created_at) index of migration 0012 dropped, so only the older account_id index
 * serves it. Medians over rounds alternating both sides; the figure is the ratio and the ms.
 *   npx tsx bench/console-usage.ts     (needs PostgreSQL at TEST_DATABASE_URL or 127.0.0.1:5432; about 1 minute)
 */
import postgres from 'postgres';
import { connect } from '../src/adapters/postgres/db.js';
import { createConsoleStore } from '../src/adapters/postgres/console-store.js';
import { createTestDatabase } from '../test/support/db.js';

const ACCOUNTS = 1_000;
const ROWS_PER_ACCOUNT = 1_000;
const ROUNDS = 7;
const CALLS = 20;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < CALLS; i++) await fn();
  return (performance.now() - start) / CALLS;
}

const db = await createTestDatabase();
const sql = postgres(db.url, { max: 1, onnotice: () => {} });
const database = connect(db.url, 2);
try {
  const seedStart = performance.now();
  await sql`insert into accounts (id, email, plan) select 'acct_' || g, 'u' || g || '@example.com', 'pro' from generate_series(1, ${ACCOUNTS}) g`;
  // Rows spread over 60 days, interleaved across accounts as real traffic would be.
  await sql`
    insert into credit_ledger (account_id, entry_key, amount, balance_after, reason, created_at)
    select 'acct_' || (g % ${ACCOUNTS} + 1), 'req:req_' || g, -(1 + g % 20), 0,
           (array['search','price','reviews','availability','listing','priceCompare'])[1 + g % 6],
           now() - (g % 86400 * 60 || ' seconds')::interval
    from generate_series(1, ${ACCOUNTS * ROWS_PER_ACCOUNT}) g`;
  await sql`analyze credit_ledger`;
  const seedSeconds = (performance.now() - seedStart) / 1000;

  const store = createConsoleStore(database.db);
  const since = new Date(Date.now() - 30 * 86_400_000);
  const subjects = {
    usage: () => store.usage('acct_42', since),
    requests: () => store.billedRequests('acct_42', null, 50),
    'requests (one operation)': () => store.billedRequests('acct_42', 'search', 50),
  };
  const [{ count }] = await sql<[{ count: string }]>`select count(*)::text as count from credit_ledger`;
  console.log(`ledger rows: ${count} (${ACCOUNTS} accounts); seeded in ${seedSeconds.toFixed(1)} s`);
  console.log((await sql`explain ${sql.unsafe(`select reason, count(*) from credit_ledger where account_id = 'acct_42' and created_at >= now() - interval '30 days' and amount < 0 group by 1`)}`).map((r) => r['QUERY PLAN']).join('\n'));
  for (const [name, fn] of Object.entries(subjects)) {
    const withIndex: number[] = [];
    const without: number[] = [];
    await fn(); // warm
    for (let round = 0; round < ROUNDS; round++) {
      withIndex.push(await timed(fn));
      await sql`drop index credit_ledger_account_created_idx`;
      without.push(await timed(fn));
      await sql`create index credit_ledger_account_created_idx on credit_ledger (account_id, created_at)`;
    }
    const a = median(withIndex);
    const b = median(without);
    console.log(`${name.padEnd(26)} with index ${a.toFixed(2)} ms   account_id index only ${b.toFixed(2)} ms   ratio ${(b / a).toFixed(2)}x`);
  }
} finally {
  await database.close();
  await sql.end();
  await db.drop();
}
