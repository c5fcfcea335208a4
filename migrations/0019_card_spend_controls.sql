CREATE TABLE "card_spend_controls" (
	"card_id" uuid PRIMARY KEY NOT NULL,
	"controls" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "category" text;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "decline_detail" jsonb;--> statement-breakpoint
ALTER TABLE "card_spend_controls" ADD CONSTRAINT "card_spend_controls_card_id_cards_id_fk" FOREIGN KEY ("card_id") REFERENCES "public"."cards"("id") ON DELETE cascade ON UPDATE no action;