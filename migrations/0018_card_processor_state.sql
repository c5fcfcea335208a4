-- Decision 170: the card processor is told each card's state (active, frozen, closed) by a
-- reconciler (src/server/effects/card-states.ts) that compares the state the card's row wants
-- with the one the processor last confirmed (processor_state), plus the instruction under way
-- (processor_sent, numbered by processor_seq, with its attempts and next try).
-- No backfill: issueCard leaves every card active at the processor and nothing has ever told it
-- otherwise, so 'active' is what each processor holds today. The cards already frozen, cashed
-- out, expired or closed are therefore due at once, and the reconciler's first runs tell the
-- processor, which is what a live issuer needs. A card without a provider reference was never
-- issued at a processor and is never due.
ALTER TABLE "cards" ADD COLUMN "processor_state" text DEFAULT 'active' NOT NULL;--> statement-breakpoint
ALTER TABLE "cards" ADD COLUMN "processor_sent" text;--> statement-breakpoint
ALTER TABLE "cards" ADD COLUMN "processor_seq" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "cards" ADD COLUMN "processor_attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "cards" ADD COLUMN "processor_retry_at" timestamp with time zone;--> statement-breakpoint
-- The partial index holds only the cards due (few, however many cards there are), ordered for the
-- claim. Its predicate reads status, frozen and provider_ref but not the balance, so a debit that
-- leaves the status alone (every purchase and cash-out that does not empty a card) is still a HOT
-- update that touches no index. The claim repeats the predicate word for word (schema.ts,
-- CARD_PROCESSOR_STATE_DUE) so that the planner proves it and uses the index.
CREATE INDEX "cards_processor_state_due_idx" ON "cards" USING btree ("processor_retry_at" NULLS FIRST) WHERE provider_ref is not null and (processor_sent is not null or processor_state <> (case when status <> 'active' then 'closed' when frozen then 'frozen' else 'active' end));
