-- Decision 168: where a payout method's money goes, as the payout provider knows it: the opaque
-- reference it answered when the method's details were registered. A full bank account number is
-- given to the provider once and kept nowhere (detail keeps its last 4 digits).
-- No backfill: a reference is the provider's answer to a registration, and the methods saved
-- before this one were never registered. A made-up demo_dest_ reference would be a registration
-- no provider made (and a live provider would refuse it), so they stay null: "unknown". Demo
-- payouts need no destination; a live adapter must refuse a payout without one, so before live
-- payouts those methods need their details again (an ACH method keeps only 4 digits of its account).
ALTER TABLE "payout_methods" ADD COLUMN "destination_ref" text;
