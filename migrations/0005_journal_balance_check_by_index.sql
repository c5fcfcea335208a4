-- Hand-written. The deferred balance check of migration 0001 sums its journal's entries at every
-- commit of every money movement. PL/pgSQL keeps its query's plan for the session, and a plan
-- made while journal_entries was small scanned the whole table (a cost that grew with every entry
-- ever written: docs/performance.md, round 7). With sequential scans off inside this function
-- only, every plan it makes reads the journal's own entries through journal_entries_journal_idx.
ALTER FUNCTION journal_must_balance() SET enable_seqscan = off;
