CREATE TABLE "rate_limit_counters" (
	"key" text PRIMARY KEY NOT NULL,
	"points" integer DEFAULT 0 NOT NULL,
	"expire" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "two_factor_unlock_tokens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
DROP TABLE "rate_limits" CASCADE;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "totp_locked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "two_factor_unlock_tokens" ADD CONSTRAINT "two_factor_unlock_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "rate_limit_counters_expire_idx" ON "rate_limit_counters" USING btree ("expire");--> statement-breakpoint
CREATE UNIQUE INDEX "two_factor_unlock_tokens_hash_key" ON "two_factor_unlock_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "two_factor_unlock_tokens_user_idx" ON "two_factor_unlock_tokens" USING btree ("user_id");