-- Decision 163: the draft-lifetime job looks for drafts past their 7 days and for unsaved drafts
-- idle for an hour, across all users, every 5 minutes. Drafts are few beside completed combines,
-- so a partial index keeps that scan small; a completion leaves the index (its status no longer
-- matches) instead of adding to it.
CREATE INDEX "combines_open_drafts_idx" ON "combines" USING btree ("created_at") WHERE "combines"."status" in ('in_progress', 'incomplete');