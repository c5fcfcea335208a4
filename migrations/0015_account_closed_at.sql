-- Decision 165: when the owner closed the account. The row stays (cards, journals and rebates
-- point to it); sign-in, password reset and the session lookup read only rows where it is null.
ALTER TABLE "users" ADD COLUMN "closed_at" timestamp with time zone;