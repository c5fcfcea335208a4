-- The rows a cash-out of $1.00 must write, in one prepared statement as the app sends it, with
-- none of the app's checks: the card's debit, a balanced journal of 3 entries and the card
-- account's balance, the transaction row the user sees, the Idempotency-Key with its answer, and
-- the payout's outbox row. Less than the app does: the outbox row is never marked done (the app
-- does that after the payout, for several cash-outs in one statement) and nothing is read first.
-- Variables: -D payouts=, cashout_fee= (system account ids), answer= (JSON).
\set u random(1, 320)
\set k random(1, 1000000000000000)
with debited as (
  update cards set remaining_amount_cents = remaining_amount_cents - 100, amount_spent_cents = amount_spent_cents + 100
  where id = md5('c' || :u::text)::uuid and user_id = md5('u' || :u::text)::uuid and remaining_amount_cents >= 100 and not frozen and status = 'active'
  returning remaining_amount_cents, amount_spent_cents, status, last4
),
new_journal as (
  insert into journals (id, kind, user_id, reference_id, memo)
  select md5('j' || :k::text)::uuid, 'cashout', md5('u' || :u::text)::uuid, md5('j' || :k::text)::uuid, 'cashout to ach' from debited
  returning id
),
new_entries as (
  insert into journal_entries (journal_id, account_id, amount_cents)
  select j.id, line.account, line.amount
  from new_journal j, (values (md5('a' || :u::text)::uuid, -100::bigint), (:payouts::uuid, 99), (:cashout_fee::uuid, 1)) as line(account, amount)
  returning 1
),
card_balance as (
  update ledger_accounts set balance_cents = balance_cents - 100 where id = md5('a' || :u::text)::uuid and exists (select 1 from debited) returning 1
),
new_transaction as (
  insert into transactions (id, user_id, card_id, type, status, amount_cents, fee_cents, net_amount_cents, payout_method, journal_id)
  select j.id, md5('u' || :u::text)::uuid, md5('c' || :u::text)::uuid, 'cashout', 'success', 100, 1, 99, 'ach', j.id from new_journal j
  returning 1
),
stored_answer as (
  insert into idempotency_keys (user_id, key, fingerprint, response_status, response_body)
  select md5('u' || :u::text)::uuid, 'k' || :k::text, md5('f' || :k::text) || md5('g' || :k::text), 201, :answer::jsonb from debited
  returning 1
),
payout as (
  insert into money_effects (kind, reference, user_id, payload, attempts)
  select 'payout', 'cashout:' || :k::text, md5('u' || :u::text)::uuid, '{"amountCents":99,"method":"ach"}'::jsonb, 1 from debited
  returning 1
)
select remaining_amount_cents, amount_spent_cents, status, last4 from debited;
