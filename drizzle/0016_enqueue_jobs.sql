-- Accepting jobs in batches (issue 29): one round trip and one transaction for every job a burst
-- of 202s accepted in the same moment, instead of two per job (the credit hold, then the job row
-- with its queue entry). Per job, in the order given: its hold (when it has a cost) is checked
-- against the balance not already held, as reserve_credits does; then its row is inserted unless
-- the account has the same call in flight; then its hold is written; the queue entries of the
-- batch go in at the end with graphile-worker's add_jobs (one insert, one NOTIFY). So the row,
-- the queue entry and the hold of a job commit together or not at all. The batch's accounts
-- are locked first, in id order, so two batches cannot deadlock, and holds of one account
-- are still decided one at a time. Outcomes: 'created', 'duplicate' (the in-flight job answers;
-- no hold is taken) or 'unaffordable' (no row, no hold). The task name and each payload come
-- from the caller (src/adapters/jobs/tasks.ts declares them), the queue name rule is the one
-- of issue 23: one of the account's p_account_queues named queues, by the job id's hash.
CREATE OR REPLACE FUNCTION "enqueue_jobs"(p_jobs jsonb, p_task text, p_max_attempts integer, p_account_queues integer)
RETURNS TABLE (job_id text, outcome text)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  j jsonb;
  acct text;
  hold_amount bigint;
  balance bigint;
  held bigint;
  in_flight integer;
  specs jsonb := '[]';
BEGIN
  -- Every account of the batch, in id order, whether its job holds credits or not: a job row's
  -- foreign key takes a share lock on its account, which would wait on another batch's FOR UPDATE
  -- taken in some other order (a deadlock between two batches).
  PERFORM 1 FROM accounts
    WHERE id IN (SELECT e->>'account_id' FROM jsonb_array_elements(p_jobs) e)
    ORDER BY id FOR UPDATE;
  DELETE FROM credit_holds
    WHERE account_id IN (SELECT e->>'account_id' FROM jsonb_array_elements(p_jobs) e WHERE (e->>'hold')::bigint > 0)
    AND expires_at <= now();
  FOR j IN SELECT value FROM jsonb_array_elements(p_jobs) LOOP
    job_id := j->>'id';
    acct := j->>'account_id';
    hold_amount := (j->>'hold')::bigint;
    IF hold_amount > 0 THEN
      SELECT credit_balance INTO balance FROM accounts WHERE id = acct;
      IF NOT FOUND THEN outcome := 'unaffordable'; RETURN NEXT; CONTINUE; END IF;
      SELECT coalesce(sum(h.amount), 0) INTO held FROM credit_holds h WHERE h.account_id = acct AND h.id <> 'job:' || job_id;
      IF balance - held < hold_amount THEN outcome := 'unaffordable'; RETURN NEXT; CONTINUE; END IF;
    END IF;
    INSERT INTO async_jobs (id, account_id, key_id, key_env, procedure, input, dedup_key, platforms, status, estimated_seconds, created_at, expires_at)
      VALUES (job_id, acct, j->>'key_id', j->>'key_env', j->>'procedure', j->'input', j->>'dedup_key', j->'platforms', 'pending',
              (j->>'estimated_seconds')::int, (j->>'created_at')::timestamptz, (j->>'expires_at')::timestamptz)
      ON CONFLICT (account_id, dedup_key) WHERE status IN ('pending', 'running') DO NOTHING;
    IF NOT FOUND THEN outcome := 'duplicate'; RETURN NEXT; CONTINUE; END IF;
    -- The priority is the number of the account's jobs already in flight (this one not counted).
    SELECT count(*)::int - 1 INTO in_flight FROM async_jobs a WHERE a.account_id = acct AND a.status IN ('pending', 'running');
    specs := specs || jsonb_build_object('identifier', p_task, 'payload', j->'payload',
      'queue_name', 'account:' || acct || ':' || (abs(hashtext(job_id)) % p_account_queues)::text,
      'max_attempts', p_max_attempts, 'job_key', job_id, 'priority', least(in_flight, 32767));
    IF hold_amount > 0 THEN
      INSERT INTO credit_holds (id, account_id, amount, expires_at)
        VALUES ('job:' || job_id, acct, hold_amount, now() + make_interval(secs => (j->>'hold_ttl_ms')::bigint / 1000.0))
        ON CONFLICT (id) DO UPDATE SET amount = excluded.amount, expires_at = excluded.expires_at;
    END IF;
    outcome := 'created';
    RETURN NEXT;
  END LOOP;
  -- The queue's own batch API: one insert of every entry, one NOTIFY telling the workers how many.
  -- (graphile-worker's schema is applied after ours, so its job_spec type is named only here.)
  IF jsonb_array_length(specs) > 0 THEN
    PERFORM graphile_worker.add_jobs(ARRAY(SELECT s FROM jsonb_populate_recordset(NULL::graphile_worker.job_spec, specs) s));
  END IF;
END;
$$;
