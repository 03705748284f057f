-- enqueue_jobs (0016) in time linear in its batch: the same rules, decided in the same order, but
-- each account's held credits and jobs in flight are read once, after its lock, and then counted
-- on as the batch takes holds and writes jobs, instead of summed again for every job (a burst of
-- one account read its growing holds and jobs once per job: time quadratic in the burst, on the
-- 202s' path). The batch's accounts are locked for the whole transaction, so no other enqueue or
-- reserve_credits can add to them meanwhile; a hold released or a job ending meanwhile only makes
-- the counts the batch goes by higher than they are (a hold refused at the edge, a priority one
-- lower), never lower. Queue entries are collected in an array (appended in place), not a jsonb
-- document copied whole at each append.
CREATE OR REPLACE FUNCTION "enqueue_jobs"(p_jobs jsonb, p_task text, p_max_attempts integer, p_account_queues integer)
RETURNS TABLE (job_id text, outcome text)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  j jsonb;
  acct text;
  hold_amount bigint;
  balance bigint;
  held bigint;
  own_hold bigint;
  in_flight integer;
  held_by jsonb := '{}';
  flying_by jsonb := '{}';
  specs jsonb[] := '{}';
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
  -- Each account's holds and jobs in flight, once.
  SELECT coalesce(jsonb_object_agg(a.id, (SELECT coalesce(sum(h.amount), 0) FROM credit_holds h WHERE h.account_id = a.id)), '{}'),
         coalesce(jsonb_object_agg(a.id, (SELECT count(*) FROM async_jobs x WHERE x.account_id = a.id AND x.status IN ('pending', 'running'))), '{}')
    INTO held_by, flying_by
    FROM accounts a WHERE a.id IN (SELECT e->>'account_id' FROM jsonb_array_elements(p_jobs) e);
  FOR j IN SELECT value FROM jsonb_array_elements(p_jobs) LOOP
    job_id := j->>'id';
    acct := j->>'account_id';
    hold_amount := (j->>'hold')::bigint;
    own_hold := 0;
    IF hold_amount > 0 THEN
      SELECT credit_balance INTO balance FROM accounts WHERE id = acct;
      IF NOT FOUND THEN outcome := 'unaffordable'; RETURN NEXT; CONTINUE; END IF;
      -- A hold this job id already has (as reserve_credits, not counted against itself).
      SELECT coalesce(sum(h.amount), 0) INTO own_hold FROM credit_holds h WHERE h.id = 'job:' || job_id;
      held := (held_by->>acct)::bigint - own_hold;
      IF balance - held < hold_amount THEN outcome := 'unaffordable'; RETURN NEXT; CONTINUE; END IF;
    END IF;
    INSERT INTO async_jobs (id, account_id, key_id, key_env, procedure, input, dedup_key, platforms, status, estimated_seconds, created_at, expires_at)
      VALUES (job_id, acct, j->>'key_id', j->>'key_env', j->>'procedure', j->'input', j->>'dedup_key', j->'platforms', 'pending',
              (j->>'estimated_seconds')::int, (j->>'created_at')::timestamptz, (j->>'expires_at')::timestamptz)
      ON CONFLICT (account_id, dedup_key) WHERE status IN ('pending', 'running') DO NOTHING;
    IF NOT FOUND THEN outcome := 'duplicate'; RETURN NEXT; CONTINUE; END IF;
    -- The priority is the number of the account's jobs already in flight (this one not counted).
    in_flight := (flying_by->>acct)::int;
    flying_by := jsonb_set(flying_by, ARRAY[acct], to_jsonb(in_flight + 1));
    specs := specs || jsonb_build_object('identifier', p_task, 'payload', j->'payload',
      'queue_name', 'account:' || acct || ':' || (abs(hashtext(job_id)) % p_account_queues)::text,
      'max_attempts', p_max_attempts, 'job_key', job_id, 'priority', least(in_flight, 32767));
    IF hold_amount > 0 THEN
      INSERT INTO credit_holds (id, account_id, amount, expires_at)
        VALUES ('job:' || job_id, acct, hold_amount, now() + make_interval(secs => (j->>'hold_ttl_ms')::bigint / 1000.0))
        ON CONFLICT (id) DO UPDATE SET amount = excluded.amount, expires_at = excluded.expires_at;
      held_by := jsonb_set(held_by, ARRAY[acct], to_jsonb(held + hold_amount));
    END IF;
    outcome := 'created';
    RETURN NEXT;
  END LOOP;
  -- The queue's own batch API: one insert of every entry, one NOTIFY telling the workers how many.
  -- (graphile-worker's schema is applied after ours, so its job_spec type is named only here.)
  IF cardinality(specs) > 0 THEN
    PERFORM graphile_worker.add_jobs(ARRAY(SELECT jsonb_populate_record(NULL::graphile_worker.job_spec, s) FROM unnest(specs) WITH ORDINALITY AS t(s, n) ORDER BY n));
  END IF;
END;
$$;
