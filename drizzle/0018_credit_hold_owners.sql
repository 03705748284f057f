-- Credit holds tied to the life of the process that took them (issue 35): a hold left by a
-- process that was killed held the account's balance until it expired (two minutes and more), and
-- every call of that account on the other processes was a 402 meanwhile. Each process that takes
-- holds now beats a heartbeat here; a live call's hold names its process, and once that process
-- has missed its heartbeats for the staleness window the hold is released by another process's
-- beat. Job holds (job:<id>) name no process: they belong to a queued job that outlives the
-- process that accepted it, and end with the job (or expire). The hold's expiry stays the outer
-- bound for holds whose owner row is missing (a process of the previous release mid-deploy).
CREATE TABLE IF NOT EXISTS "credit_hold_owners" (
  "id" text PRIMARY KEY,
  "heartbeat_at" timestamptz NOT NULL,
  -- The start of this process's run of heartbeats without a gap: only a process that has beaten
  -- without a gap for a whole staleness window may judge another one dead (see below).
  "beating_since" timestamptz NOT NULL
);
--> statement-breakpoint
ALTER TABLE "credit_holds" ADD COLUMN IF NOT EXISTS "process_id" text;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "credit_holds_process_idx" ON "credit_holds" ("process_id") WHERE "process_id" IS NOT NULL;
--> statement-breakpoint
-- reserve_credits (0014) with the process the hold belongs to. The four-argument version stays
-- for processes of the previous release during a rolling deploy (their holds only expire).
CREATE OR REPLACE FUNCTION "reserve_credits"(p_account text, p_hold text, p_amount bigint, p_ttl_ms integer, p_process text) RETURNS bigint
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  balance bigint;
  held bigint;
BEGIN
  PERFORM set_config('synchronous_commit', 'off', true);
  SELECT credit_balance INTO balance FROM accounts WHERE id = p_account FOR UPDATE;
  IF NOT FOUND THEN RETURN NULL; END IF;
  DELETE FROM credit_holds WHERE account_id = p_account AND expires_at <= now();
  SELECT coalesce(sum(amount), 0) INTO held FROM credit_holds WHERE account_id = p_account AND id <> p_hold;
  IF balance - held >= p_amount THEN
    INSERT INTO credit_holds (id, account_id, amount, expires_at, process_id)
    VALUES (p_hold, p_account, p_amount, now() + make_interval(secs => p_ttl_ms / 1000.0), p_process)
    ON CONFLICT (id) DO UPDATE SET amount = excluded.amount, expires_at = excluded.expires_at, process_id = excluded.process_id;
  END IF;
  RETURN balance - held;
END;
$$;
--> statement-breakpoint
-- One heartbeat of p_owner, and the release of the holds of every process whose heartbeat is
-- older than p_stale_ms. Times are the database's, so the processes' clocks never disagree.
-- A process judges others only after beating without a gap (no two beats more than half the
-- window apart) for the whole window: after an outage or a pause of the database, when no process
-- could beat, the first beats refresh their own rows and release nothing, so a living process
-- whose beat lands a moment later keeps its holds. Holds being settled right now are skipped,
-- not waited for. Not made durable: a beat lost in a crash is one more beat missed. Returns the
-- number of holds released.
CREATE OR REPLACE FUNCTION "beat_credit_hold_owner"(p_owner text, p_stale_ms integer) RETURNS integer
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  stale interval := make_interval(secs => p_stale_ms / 1000.0);
  since timestamptz;
  released integer;
BEGIN
  PERFORM set_config('synchronous_commit', 'off', true);
  INSERT INTO credit_hold_owners AS o (id, heartbeat_at, beating_since) VALUES (p_owner, now(), now())
  ON CONFLICT (id) DO UPDATE SET heartbeat_at = excluded.heartbeat_at,
    beating_since = CASE WHEN o.heartbeat_at >= excluded.heartbeat_at - stale / 2 THEN o.beating_since ELSE excluded.heartbeat_at END
  RETURNING beating_since INTO since;
  IF since > now() - stale THEN RETURN 0; END IF;
  WITH dead AS (
    SELECT h.id FROM credit_holds h JOIN credit_hold_owners o ON o.id = h.process_id
    WHERE o.heartbeat_at < now() - stale
    FOR UPDATE OF h SKIP LOCKED
  ), gone AS (DELETE FROM credit_holds WHERE id IN (SELECT id FROM dead) RETURNING 1)
  SELECT count(*)::integer INTO released FROM gone;
  -- A dead process's row goes once it holds nothing (its holds' delete is seen by this statement).
  DELETE FROM credit_hold_owners o WHERE o.heartbeat_at < now() - stale
    AND NOT EXISTS (SELECT 1 FROM credit_holds h WHERE h.process_id = o.id);
  RETURN released;
END;
$$;
