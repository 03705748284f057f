-- TRUNCATE bypasses row triggers; refuse it too, so the ledger cannot be emptied.
CREATE TRIGGER credit_ledger_no_truncate
  BEFORE TRUNCATE ON credit_ledger
  FOR EACH STATEMENT EXECUTE FUNCTION credit_ledger_refuse_change();
