-- Developer console (issue 18): what a billed request asked and got, written by the debit itself,
-- and when each key was last used. Columns are added without defaults: no table rewrite, and the
-- append-only trigger (0001) stays as it is: rows are still only ever inserted.
ALTER TABLE "credit_ledger" ADD COLUMN IF NOT EXISTS "platforms" text[];
--> statement-breakpoint
-- Credits per platform, in the order of "platforms": the usage chart splits a debit exactly.
ALTER TABLE "credit_ledger" ADD COLUMN IF NOT EXISTS "platform_credits" integer[];
--> statement-breakpoint
-- 'complete' or 'partial' (a platform failed and was not billed); null on grants and older rows.
ALTER TABLE "credit_ledger" ADD COLUMN IF NOT EXISTS "status" text;
--> statement-breakpoint
ALTER TABLE "credit_ledger" ADD COLUMN IF NOT EXISTS "key_id" text;
--> statement-breakpoint
-- The console's reads are of billed requests only (debits of requests and jobs), newest first:
-- partial indexes that hold nothing else, so grants and adjustments never have to be skipped.
-- The 30-day usage by operation is an index-only scan of the first (amount and reason included).
CREATE INDEX IF NOT EXISTS "credit_ledger_billed_idx" ON "credit_ledger" ("account_id", "created_at" DESC, "id" DESC) INCLUDE ("amount", "reason")
  WHERE "amount" < 0 AND ("entry_key" LIKE 'req:%' OR "entry_key" LIKE 'job:%');
--> statement-breakpoint
-- Recent requests of one operation: a top-N walk however rarely the account calls it.
CREATE INDEX IF NOT EXISTS "credit_ledger_billed_operation_idx" ON "credit_ledger" ("account_id", "reason", "created_at" DESC, "id" DESC)
  WHERE "amount" < 0 AND ("entry_key" LIKE 'req:%' OR "entry_key" LIKE 'job:%');
--> statement-breakpoint
-- Recent partial answers: rare, so this index is small and costs a write only when one happens.
CREATE INDEX IF NOT EXISTS "credit_ledger_billed_partial_idx" ON "credit_ledger" ("account_id", "created_at" DESC, "id" DESC)
  WHERE "amount" < 0 AND ("entry_key" LIKE 'req:%' OR "entry_key" LIKE 'job:%') AND "status" = 'partial';
--> statement-breakpoint
-- Superseded by credit_ledger_billed_idx for the console; the CLI's per-account reads use
-- credit_ledger_account_idx. One index fewer to maintain on every debit.
DROP INDEX IF EXISTS "credit_ledger_account_created_idx";
--> statement-breakpoint
-- Written at most once a minute per key and process (key-last-use.ts), never on the request's path.
ALTER TABLE "api_keys" ADD COLUMN IF NOT EXISTS "last_used_at" timestamp with time zone;
