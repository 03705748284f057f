-- Sign-in tries per pending request are capped; a code and its tokens carry the key kind chosen
-- at consent (sandbox or live); every token of one sign-in shares a family, so a replayed refresh
-- token or authorization code revokes them all (RFC 9700 section 4.14).
ALTER TABLE "oauth_requests" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "oauth_codes" ADD COLUMN "key_env" text DEFAULT 'live' NOT NULL;--> statement-breakpoint
ALTER TABLE "oauth_tokens" ADD COLUMN "key_env" text DEFAULT 'live' NOT NULL;--> statement-breakpoint
ALTER TABLE "oauth_tokens" ADD COLUMN "family_id" text;--> statement-breakpoint
ALTER TABLE "oauth_codes" ADD CONSTRAINT "oauth_codes_key_env" CHECK ("oauth_codes"."key_env" in ('live', 'sandbox'));--> statement-breakpoint
ALTER TABLE "oauth_tokens" ADD CONSTRAINT "oauth_tokens_key_env" CHECK ("oauth_tokens"."key_env" in ('live', 'sandbox'));--> statement-breakpoint
CREATE INDEX "oauth_tokens_family_idx" ON "oauth_tokens" USING btree ("family_id");
