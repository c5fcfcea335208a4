-- Hand-written (decision 153). The ledger is append-only: a posted journal is corrected by a new
-- journal, never by changing or removing what was posted. Migration 0001's balance check runs on
-- every entry inserted or updated, but a deleted entry, or one moved to another journal, left
-- the journal it came from unbalanced with nothing to say so. Refused here for every statement,
-- whatever the code does; inserts pay nothing for it (statement triggers on other events only).
CREATE OR REPLACE FUNCTION ledger_is_append_only() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION '% is append-only: % refused (correct a journal with a new journal)', TG_TABLE_NAME, TG_OP
    USING ERRCODE = 'integrity_constraint_violation';
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER journal_entries_append_only
BEFORE UPDATE OR DELETE OR TRUNCATE ON journal_entries
FOR EACH STATEMENT EXECUTE FUNCTION ledger_is_append_only();
--> statement-breakpoint
CREATE TRIGGER journals_append_only
BEFORE UPDATE OR DELETE OR TRUNCATE ON journals
FOR EACH STATEMENT EXECUTE FUNCTION ledger_is_append_only();
