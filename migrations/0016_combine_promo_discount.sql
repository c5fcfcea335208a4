-- Decision 167: whether the launch promo halved a combine's product fee. promo_applied marks only
-- the combine that claimed the spot; this marks every combine whose product fee the promo halved.
ALTER TABLE "combines" ADD COLUMN "promo_discount" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Completed combines before this migration: the promo applied to a completion at time t exactly
-- when t < promo_end (core/promo.ts isPromoActive) and t >= promo_start (the claim's own
-- completion is at promo_start); nothing changes those dates after the claim. It halved a fee
-- when no boost waived it and the plan had one, which the stored fees tell: some product fee was
-- charged.
UPDATE "combines" c SET "promo_discount" = true
FROM "users" u
WHERE c."user_id" = u."id" AND c."status" = 'completed' AND u."promo_50off_first_year"
  AND c."completed_at" >= u."promo_start" AND c."completed_at" < u."promo_end"
  AND NOT c."use_boost"
  AND EXISTS (SELECT 1 FROM "combine_sources" s WHERE s."combine_id" = c."id" AND s."product_fee_cents" > 0);
