-- Developer console (issue 18): browser sessions, and the index its usage and request reads need.
CREATE TABLE IF NOT EXISTS "console_sessions" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL REFERENCES "accounts"("id"),
	"csrf" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "console_sessions_expires_idx" ON "console_sessions" ("expires_at");
--> statement-breakpoint
-- An account's ledger by time: the console's 30-day usage and recent billed requests read a range of it.
CREATE INDEX IF NOT EXISTS "credit_ledger_account_created_idx" ON "credit_ledger" ("account_id", "created_at");
