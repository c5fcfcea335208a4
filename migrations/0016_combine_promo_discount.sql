-- Decision 167: whether the launch promo halved a combine's product fee. promo_applied marks only
-- the combine that claimed the spot; this marks every combine the discount applied to.
ALTER TABLE "combines" ADD COLUMN "promo_discount" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Completed combines before this migration: the promo applied to a completion at time t exactly
-- when t < promo_end (core/promo.ts isPromoActive) and t >= promo_start (the claim's own
-- completion is at promo_start). Nothing changes promo_start or promo_end after the claim.
UPDATE "combines" c SET "promo_discount" = true
FROM "users" u
WHERE c."user_id" = u."id" AND c."status" = 'completed' AND u."promo_50off_first_year"
  AND c."completed_at" >= u."promo_start" AND c."completed_at" < u."promo_end";
