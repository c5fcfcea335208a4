CREATE TABLE "audit_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" uuid,
	"event" text NOT NULL,
	"ip" text,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cards" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"combine_id" uuid,
	"type" text DEFAULT 'general' NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"frozen" boolean DEFAULT false NOT NULL,
	"issued_at" timestamp with time zone DEFAULT now() NOT NULL,
	"valid_until" timestamp with time zone NOT NULL,
	"exp_month" integer NOT NULL,
	"exp_year" integer NOT NULL,
	"network" text NOT NULL,
	"last4" text NOT NULL,
	"number_enc" text NOT NULL,
	"cvv_enc" text NOT NULL,
	"original_amount_cents" bigint NOT NULL,
	"amount_spent_cents" bigint DEFAULT 0 NOT NULL,
	"remaining_amount_cents" bigint NOT NULL,
	"ledger_account_id" uuid NOT NULL,
	"promo_applied" boolean DEFAULT false NOT NULL,
	"promo_id" text,
	"provider_ref" text,
	"closed_at" timestamp with time zone,
	"simulated" boolean DEFAULT true NOT NULL,
	"test_source" text DEFAULT '' NOT NULL,
	"environment" text DEFAULT 'test' NOT NULL,
	CONSTRAINT "cards_remaining_not_negative" CHECK ("cards"."remaining_amount_cents" >= 0),
	CONSTRAINT "cards_amounts_check" CHECK ("cards"."amount_spent_cents" >= 0 and "cards"."original_amount_cents" >= 0),
	CONSTRAINT "cards_type_check" CHECK ("cards"."type" in ('general', 'single-use')),
	CONSTRAINT "cards_status_check" CHECK ("cards"."status" in ('active', 'cashed_out', 'expired', 'closed')),
	CONSTRAINT "cards_network_check" CHECK ("cards"."network" in ('visa', 'mastercard'))
);
--> statement-breakpoint
CREATE TABLE "combine_sources" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"combine_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"type" text NOT NULL,
	"provider" text NOT NULL,
	"charge_cents" bigint NOT NULL,
	"brand" text,
	"last4" text,
	"exp_month" integer,
	"exp_year" integer,
	"token" text,
	"authorization_id" text,
	"status" text DEFAULT 'authorized' NOT NULL,
	"source_card_id" uuid,
	"bnpl_card_brand" text,
	"bnpl_card_last4" text,
	"bnpl_card_token" text,
	"bnpl_transaction_id" text,
	"processor_fee_cents" bigint DEFAULT 0 NOT NULL,
	"product_fee_cents" bigint DEFAULT 0 NOT NULL,
	"net_cents" bigint DEFAULT 0 NOT NULL,
	"bnpl_fee_max_cents" bigint DEFAULT 0 NOT NULL,
	"bnpl_fee_actual_cents" bigint DEFAULT 0 NOT NULL,
	"rebate_cents" bigint DEFAULT 0 NOT NULL,
	"creation_fee_cents" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "combine_sources_type_check" CHECK ("combine_sources"."type" in ('credit', 'debit', 'prepaid', 'bnpl', 'internal')),
	CONSTRAINT "combine_sources_status_check" CHECK ("combine_sources"."status" in ('authorized', 'captured', 'released')),
	CONSTRAINT "combine_sources_charge_check" CHECK ("combine_sources"."charge_cents" > 0)
);
--> statement-breakpoint
CREATE TABLE "combines" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"status" text DEFAULT 'in_progress' NOT NULL,
	"base_amount_cents" bigint DEFAULT 0 NOT NULL,
	"total_amount_cents" bigint DEFAULT 0 NOT NULL,
	"tax_buffer_cents" bigint DEFAULT 0 NOT NULL,
	"include_tax_buffer" boolean DEFAULT true NOT NULL,
	"current_step" integer DEFAULT 1 NOT NULL,
	"bnpl_step_completed" boolean DEFAULT false NOT NULL,
	"bnpl_checkout_completed" boolean DEFAULT false NOT NULL,
	"use_boost" boolean DEFAULT false NOT NULL,
	"creation_fee_source_idx" integer DEFAULT -1 NOT NULL,
	"card_type" text DEFAULT 'general' NOT NULL,
	"promo_applied" boolean DEFAULT false NOT NULL,
	"bnpl_fee_max_cents" bigint DEFAULT 0 NOT NULL,
	"bnpl_fee_actual_cents" bigint DEFAULT 0 NOT NULL,
	"rebate_id" uuid,
	"card_id" uuid,
	"form_data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"saved_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"simulated" boolean DEFAULT true NOT NULL,
	"test_source" text DEFAULT '' NOT NULL,
	"environment" text DEFAULT 'test' NOT NULL,
	CONSTRAINT "combines_status_check" CHECK ("combines"."status" in ('in_progress', 'incomplete', 'processing', 'completed', 'failed')),
	CONSTRAINT "combines_card_type_check" CHECK ("combines"."card_type" in ('general', 'single-use')),
	CONSTRAINT "combines_amounts_check" CHECK ("combines"."total_amount_cents" >= 0 and "combines"."total_amount_cents" <= 5000000 and "combines"."tax_buffer_cents" >= 0)
);
--> statement-breakpoint
CREATE TABLE "idempotency_keys" (
	"user_id" uuid NOT NULL,
	"key" text NOT NULL,
	"fingerprint" text NOT NULL,
	"response_status" integer NOT NULL,
	"response_body" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "idempotency_keys_user_id_key_pk" PRIMARY KEY("user_id","key")
);
--> statement-breakpoint
CREATE TABLE "journal_entries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"journal_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"amount_cents" bigint NOT NULL,
	CONSTRAINT "journal_entries_nonzero" CHECK ("journal_entries"."amount_cents" <> 0)
);
--> statement-breakpoint
CREATE TABLE "journals" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"user_id" uuid,
	"reference_id" uuid,
	"memo" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ledger_accounts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"code" text NOT NULL,
	"kind" text NOT NULL,
	"user_id" uuid,
	"balance_cents" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledger_accounts_kind_check" CHECK ("ledger_accounts"."kind" in ('funding_source', 'card', 'product_fee_revenue', 'creation_fee_revenue', 'cashout_fee_revenue', 'processor_fees', 'bnpl_provider_fees', 'rebates_payable', 'payouts', 'merchants', 'subscription_revenue')),
	CONSTRAINT "ledger_accounts_card_not_negative" CHECK ("ledger_accounts"."kind" <> 'card' or "ledger_accounts"."balance_cents" >= 0)
);
--> statement-breakpoint
CREATE TABLE "outbox" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"to_address" text NOT NULL,
	"subject" text NOT NULL,
	"text_body" text NOT NULL,
	"html_body" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	CONSTRAINT "outbox_status_check" CHECK ("outbox"."status" in ('pending', 'sent', 'stored', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "password_reset_tokens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "payout_methods" (
	"user_id" uuid NOT NULL,
	"method" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"last_used" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payout_methods_user_id_method_pk" PRIMARY KEY("user_id","method"),
	CONSTRAINT "payout_methods_method_check" CHECK ("payout_methods"."method" in ('ach', 'paypal', 'cashapp')),
	CONSTRAINT "payout_methods_status_check" CHECK ("payout_methods"."status" in ('active', 'inactive'))
);
--> statement-breakpoint
CREATE TABLE "rate_limits" (
	"key" text PRIMARY KEY NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"count" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rebates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"combine_id" uuid NOT NULL,
	"card_id" uuid NOT NULL,
	"source_id" uuid NOT NULL,
	"transaction_id" text,
	"bnpl_fee_max_cents" bigint NOT NULL,
	"bnpl_fee_actual_cents" bigint NOT NULL,
	"rebate_amount_cents" bigint NOT NULL,
	"payout_method" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"processed_at" timestamp with time zone,
	"journal_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "rebates_status_check" CHECK ("rebates"."status" in ('pending', 'processed')),
	CONSTRAINT "rebates_amount_check" CHECK ("rebates"."rebate_amount_cents" >= 0)
);
--> statement-breakpoint
CREATE TABLE "recovery_codes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"code_hash" text NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"token_hash" text NOT NULL,
	"remember" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"reauthenticated_at" timestamp with time zone,
	"user_agent" text,
	"ip" text
);
--> statement-breakpoint
CREATE TABLE "subscription_payments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"plan" text NOT NULL,
	"billing_cycle" text NOT NULL,
	"list_price_cents" bigint NOT NULL,
	"discount_ppm" integer DEFAULT 0 NOT NULL,
	"amount_cents" bigint NOT NULL,
	"card_brand" text,
	"card_last4" text,
	"journal_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"simulated" boolean DEFAULT true NOT NULL,
	"test_source" text DEFAULT '' NOT NULL,
	"environment" text DEFAULT 'test' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "system_promos" (
	"id" text PRIMARY KEY NOT NULL,
	"first_100_promo_claimed" integer DEFAULT 0 NOT NULL,
	"limit_count" integer DEFAULT 100 NOT NULL,
	CONSTRAINT "system_promos_claimed_check" CHECK ("system_promos"."first_100_promo_claimed" between 0 and "system_promos"."limit_count")
);
--> statement-breakpoint
CREATE TABLE "transactions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"card_id" uuid NOT NULL,
	"type" text NOT NULL,
	"status" text DEFAULT 'success' NOT NULL,
	"amount_cents" bigint NOT NULL,
	"fee_cents" bigint DEFAULT 0 NOT NULL,
	"net_amount_cents" bigint NOT NULL,
	"payout_method" text,
	"merchant" text,
	"decline_reason" text,
	"combine_id" uuid,
	"journal_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"simulated" boolean DEFAULT true NOT NULL,
	"test_source" text DEFAULT '' NOT NULL,
	"environment" text DEFAULT 'test' NOT NULL,
	CONSTRAINT "transactions_type_check" CHECK ("transactions"."type" in ('cashout', 'purchase', 'funding', 'transfer_in', 'transfer_out')),
	CONSTRAINT "transactions_status_check" CHECK ("transactions"."status" in ('success', 'declined', 'pending')),
	CONSTRAINT "transactions_amount_check" CHECK ("transactions"."amount_cents" >= 0 and "transactions"."fee_cents" >= 0)
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"password_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_reset" timestamp with time zone,
	"subscription" text DEFAULT 'free' NOT NULL,
	"billing_cycle" text,
	"subscription_price_cents" bigint DEFAULT 0 NOT NULL,
	"subscription_updated" timestamp with time zone,
	"current_subscription_start" timestamp with time zone,
	"subscription_period_end" timestamp with time zone,
	"cancel_at_period_end" boolean DEFAULT false NOT NULL,
	"subscription_last_canceled_at" timestamp with time zone,
	"loyalty_discount_months" integer DEFAULT 0 NOT NULL,
	"boosts_used" integer DEFAULT 0 NOT NULL,
	"boosts_available" integer DEFAULT 0 NOT NULL,
	"combine_total" integer DEFAULT 0 NOT NULL,
	"promo_50off_first_year" boolean DEFAULT false NOT NULL,
	"promo_start" timestamp with time zone,
	"promo_end" timestamp with time zone,
	"preferred_payout" text,
	"totp_secret_enc" text,
	"totp_enabled" boolean DEFAULT false NOT NULL,
	"last_updated" timestamp with time zone DEFAULT now() NOT NULL,
	"simulated" boolean DEFAULT true NOT NULL,
	"test_source" text DEFAULT '' NOT NULL,
	"environment" text DEFAULT 'test' NOT NULL,
	CONSTRAINT "users_subscription_check" CHECK ("users"."subscription" in ('free', 'premium', 'premium+')),
	CONSTRAINT "users_billing_cycle_check" CHECK ("users"."billing_cycle" is null or "users"."billing_cycle" in ('monthly', 'yearly')),
	CONSTRAINT "users_boosts_check" CHECK ("users"."boosts_available" between 0 and 3 and "users"."boosts_used" between 0 and 3),
	CONSTRAINT "users_combine_total_check" CHECK ("users"."combine_total" >= 0),
	CONSTRAINT "users_preferred_payout_check" CHECK ("users"."preferred_payout" is null or "users"."preferred_payout" in ('ach', 'paypal', 'cashapp'))
);
--> statement-breakpoint
ALTER TABLE "cards" ADD CONSTRAINT "cards_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "combine_sources" ADD CONSTRAINT "combine_sources_combine_id_combines_id_fk" FOREIGN KEY ("combine_id") REFERENCES "public"."combines"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "combines" ADD CONSTRAINT "combines_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "journal_entries" ADD CONSTRAINT "journal_entries_journal_id_journals_id_fk" FOREIGN KEY ("journal_id") REFERENCES "public"."journals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "journal_entries" ADD CONSTRAINT "journal_entries_account_id_ledger_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."ledger_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "password_reset_tokens" ADD CONSTRAINT "password_reset_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_methods" ADD CONSTRAINT "payout_methods_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rebates" ADD CONSTRAINT "rebates_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recovery_codes" ADD CONSTRAINT "recovery_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_payments" ADD CONSTRAINT "subscription_payments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_log_user_idx" ON "audit_log" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "cards_user_idx" ON "cards" USING btree ("user_id","issued_at");--> statement-breakpoint
CREATE INDEX "combine_sources_combine_idx" ON "combine_sources" USING btree ("combine_id","position");--> statement-breakpoint
CREATE INDEX "combines_user_status_idx" ON "combines" USING btree ("user_id","status","created_at");--> statement-breakpoint
CREATE INDEX "idempotency_keys_created_idx" ON "idempotency_keys" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "journal_entries_journal_idx" ON "journal_entries" USING btree ("journal_id");--> statement-breakpoint
CREATE INDEX "journal_entries_account_idx" ON "journal_entries" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "journals_reference_idx" ON "journals" USING btree ("reference_id");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_accounts_code_key" ON "ledger_accounts" USING btree ("code");--> statement-breakpoint
CREATE INDEX "outbox_created_idx" ON "outbox" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "password_reset_tokens_hash_key" ON "password_reset_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "rebates_user_idx" ON "rebates" USING btree ("user_id","status");--> statement-breakpoint
CREATE INDEX "recovery_codes_user_idx" ON "recovery_codes" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "sessions_token_hash_key" ON "sessions" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "sessions_user_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "transactions_card_idx" ON "transactions" USING btree ("card_id","created_at");--> statement-breakpoint
CREATE INDEX "transactions_user_type_idx" ON "transactions" USING btree ("user_id","type","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_key" ON "users" USING btree ("email");