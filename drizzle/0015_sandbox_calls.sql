-- Sandbox calls per account and UTC day (issue 22): the console's only trace of free calls, which
-- the ledger never holds. Each process counts in memory and adds its counts here in one batched
-- upsert every few seconds and at shutdown, so the hot path gains no round trip; a crash may lose
-- the last few seconds of counts. Informational only: nothing is ever billed from this table.
CREATE TABLE IF NOT EXISTS "sandbox_calls" (
  "account_id" text NOT NULL REFERENCES "accounts"("id") ON DELETE CASCADE,
  "day" date NOT NULL,
  "calls" bigint NOT NULL CHECK ("calls" >= 0),
  PRIMARY KEY ("account_id", "day")
);
