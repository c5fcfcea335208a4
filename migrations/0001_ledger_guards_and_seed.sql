-- Hand-written: what the schema file cannot say.

-- The launch promo counter (spec §3: system_promos / promo_counters_main).
INSERT INTO "system_promos" ("id", "first_100_promo_claimed", "limit_count")
VALUES ('promo_counters_main', 0, 100)
ON CONFLICT ("id") DO NOTHING;
--> statement-breakpoint

-- DECISIONS §1: every journal sums to zero. Checked by the database at commit time, so a
-- half-posted or unbalanced journal can never be committed, whatever the code does.
CREATE OR REPLACE FUNCTION journal_must_balance() RETURNS trigger AS $$
DECLARE
  total bigint;
BEGIN
  SELECT COALESCE(SUM(amount_cents), 0) INTO total FROM journal_entries WHERE journal_id = NEW.journal_id;
  IF total <> 0 THEN
    RAISE EXCEPTION 'journal % does not balance (sum % cents)', NEW.journal_id, total
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint

CREATE CONSTRAINT TRIGGER journal_entries_balance
AFTER INSERT OR UPDATE ON journal_entries
DEFERRABLE INITIALLY DEFERRED
FOR EACH ROW EXECUTE FUNCTION journal_must_balance();
--> statement-breakpoint

-- System accounts that every money movement posts against.
INSERT INTO "ledger_accounts" ("code", "kind") VALUES
  ('system:funding_sources', 'funding_source'),
  ('system:product_fee_revenue', 'product_fee_revenue'),
  ('system:creation_fee_revenue', 'creation_fee_revenue'),
  ('system:cashout_fee_revenue', 'cashout_fee_revenue'),
  ('system:processor_fees', 'processor_fees'),
  ('system:bnpl_provider_fees', 'bnpl_provider_fees'),
  ('system:rebates_payable', 'rebates_payable'),
  ('system:payouts', 'payouts'),
  ('system:merchants', 'merchants'),
  ('system:subscription_revenue', 'subscription_revenue')
ON CONFLICT ("code") DO NOTHING;
