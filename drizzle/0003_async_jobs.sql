CREATE TABLE "async_jobs" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"key_id" text NOT NULL,
	"key_env" text NOT NULL,
	"procedure" text NOT NULL,
	"input" jsonb NOT NULL,
	"dedup_key" text NOT NULL,
	"platforms" jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"estimated_seconds" integer NOT NULL,
	"result" jsonb,
	"credits_charged" integer DEFAULT 0 NOT NULL,
	"error" jsonb,
	"created_at" timestamp with time zone NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "async_jobs_status" CHECK ("async_jobs"."status" in ('pending', 'running', 'completed', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "worker_heartbeats" (
	"worker_id" text PRIMARY KEY NOT NULL,
	"beat_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "async_jobs" ADD CONSTRAINT "async_jobs_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "async_jobs_in_flight" ON "async_jobs" USING btree ("account_id","dedup_key") WHERE status in ('pending', 'running');--> statement-breakpoint
CREATE INDEX "async_jobs_expires_idx" ON "async_jobs" USING btree ("expires_at");