-- DECISIONS §4: a card's figures satisfy original = spent + remaining, and every debit counts as
-- spent (purchases, cash-outs and use as a source). Until now only purchases did: the cash-outs and
-- source uses made so far are what separates original - remaining from spent. Funding is the only
-- credit a card ever gets, so original - remaining is exactly everything it has paid out.
UPDATE "cards" SET "amount_spent_cents" = "original_amount_cents" - "remaining_amount_cents"
WHERE "amount_spent_cents" <> "original_amount_cents" - "remaining_amount_cents";--> statement-breakpoint
ALTER TABLE "cards" ADD CONSTRAINT "cards_figures_add_up" CHECK ("cards"."original_amount_cents" = "cards"."amount_spent_cents" + "cards"."remaining_amount_cents");
