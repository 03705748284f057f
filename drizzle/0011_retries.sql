CREATE TABLE "idempotency_keys" (
	"account_id" text NOT NULL,
	"key" text NOT NULL,
	"fingerprint" text NOT NULL,
	"status" text DEFAULT 'running' NOT NULL,
	"request_id" text NOT NULL,
	"response_status" integer,
	"response_headers" jsonb,
	"response_body" jsonb,
	"locked_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "idempotency_keys_pk" PRIMARY KEY ("account_id", "key"),
	CONSTRAINT "idempotency_keys_status" CHECK ("idempotency_keys"."status" in ('running', 'done'))
);
--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "idempotency_keys_expires_idx" ON "idempotency_keys" USING btree ("expires_at");--> statement-breakpoint
CREATE TABLE "webhook_secrets" (
	"account_id" text PRIMARY KEY NOT NULL,
	"secret" text NOT NULL,
	"previous_secret" text,
	"rotated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "webhook_secrets" ADD CONSTRAINT "webhook_secrets_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE TABLE "job_webhooks" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"job_id" text NOT NULL,
	"account_id" text NOT NULL,
	"url" text NOT NULL,
	"status" text DEFAULT 'waiting' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"last_attempt_at" timestamp with time zone,
	"delivered_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "job_webhooks_status" CHECK ("job_webhooks"."status" in ('waiting', 'pending', 'retrying', 'delivered', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "job_webhooks" ADD CONSTRAINT "job_webhooks_job_id_async_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."async_jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "job_webhooks_job_url" ON "job_webhooks" USING btree ("job_id", "url");--> statement-breakpoint
-- When a job ends (whichever code path ends it): wake long polls in every process, and queue the
-- deliveries of its webhooks, in the transaction that ended it.
CREATE FUNCTION "async_job_finished"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	w record;
BEGIN
	PERFORM pg_notify('async_job_finished', NEW.id);
	FOR w IN UPDATE job_webhooks SET status = 'pending' WHERE job_id = NEW.id AND status = 'waiting' RETURNING id LOOP
		PERFORM graphile_worker.add_job('deliver_webhook', json_build_object('webhookId', w.id), job_key := 'webhook:' || w.id, max_attempts := 5);
	END LOOP;
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "async_jobs_finished" AFTER UPDATE OF "status" ON "async_jobs" FOR EACH ROW
	WHEN (NEW.status IN ('completed', 'failed') AND OLD.status IS DISTINCT FROM NEW.status)
	EXECUTE FUNCTION "async_job_finished"();
