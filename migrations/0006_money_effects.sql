CREATE TABLE "money_effects" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"reference" text NOT NULL,
	"user_id" uuid,
	"payload" jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_error" text,
	"result" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"done_at" timestamp with time zone,
	CONSTRAINT "money_effects_kind_check" CHECK ("money_effects"."kind" in ('capture', 'void', 'payout', 'rebate_payout')),
	CONSTRAINT "money_effects_status_check" CHECK ("money_effects"."status" in ('pending', 'done', 'dead'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "money_effects_reference_key" ON "money_effects" USING btree ("reference");--> statement-breakpoint
CREATE INDEX "money_effects_due_idx" ON "money_effects" USING btree ("next_attempt_at") WHERE "money_effects"."status" = 'pending';