-- Issue 23 (decision 141): indexes that no query reads, paid for by every money movement. Nothing
-- looks journals up by reference_id, and only the ledger check reads entries by account (all of
-- them, in one aggregate); the entries of the system accounts all went into one run of duplicates.
DROP INDEX "journals_reference_idx";--> statement-breakpoint
DROP INDEX "journal_entries_account_idx";
