-- Credit holds (issue 23): a live call holds its worst-case cost against the balance before it
-- asks any platform, so concurrent calls cannot spend upstream work the balance will not pay for.
-- The debit that settles a call deletes its hold in the same statement; a call that charges
-- nothing deletes it at its end; a hold left by a dead process expires. Holds are not ledger
-- entries: the ledger and the balance move only when credits are really charged.
CREATE TABLE IF NOT EXISTS "credit_holds" (
  "id" text PRIMARY KEY,
  "account_id" text NOT NULL REFERENCES "accounts"("id") ON DELETE CASCADE,
  "amount" bigint NOT NULL CHECK ("amount" > 0),
  "expires_at" timestamptz NOT NULL
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "credit_holds_account_idx" ON "credit_holds" ("account_id");
--> statement-breakpoint
-- One round trip: lock the account's row (so holds of one account are decided one at a time),
-- drop its expired holds, and add this one when the balance not yet held covers it. Each
-- statement of a VOLATILE function reads a fresh snapshot, so the sum sees every hold committed
-- by the calls that held the lock before. Returns the credits that were free before this hold
-- (the hold was taken when that is at least p_amount), or null for an unknown account. Holds
-- are advisory: the guarded debit stays the truth of the balance, so they are not made durable.
CREATE OR REPLACE FUNCTION "reserve_credits"(p_account text, p_hold text, p_amount bigint, p_ttl_ms integer) RETURNS bigint
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  balance bigint;
  held bigint;
BEGIN
  -- A hold need not survive a crash (it would only expire): its commit does not wait for the WAL.
  PERFORM set_config('synchronous_commit', 'off', true);
  SELECT credit_balance INTO balance FROM accounts WHERE id = p_account FOR UPDATE;
  IF NOT FOUND THEN RETURN NULL; END IF;
  DELETE FROM credit_holds WHERE account_id = p_account AND expires_at <= now();
  SELECT coalesce(sum(amount), 0) INTO held FROM credit_holds WHERE account_id = p_account AND id <> p_hold;
  IF balance - held >= p_amount THEN
    INSERT INTO credit_holds (id, account_id, amount, expires_at)
    VALUES (p_hold, p_account, p_amount, now() + make_interval(secs => p_ttl_ms / 1000.0))
    ON CONFLICT (id) DO UPDATE SET amount = excluded.amount, expires_at = excluded.expires_at;
  END IF;
  RETURN balance - held;
END;
$$;
