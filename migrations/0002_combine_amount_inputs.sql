ALTER TABLE "combines" ADD COLUMN "base_input" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "combines" ADD COLUMN "buffer_input" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "combines" ADD COLUMN "buffer_mode" text DEFAULT 'percent' NOT NULL;