-- The rows a completion of 2 sources must write, in one prepared statement with none of the
-- app's checks or locked reads: the new card and its ledger account, a balanced journal of 5
-- entries (funding, the card, processor, product and creation fees), the funding row the user
-- sees, the user's counters, both sources captured, the combine completed, the Idempotency-Key
-- with its answer (about 4 KB, as the app stores it), and the 2 captures' outbox rows. Less than
-- the app does: no begin, locked read or commit of their own, and the captures are never marked done.
-- Variables: -D funding=, processor=, product=, creation= (system account ids), answer= (JSON).
\set u random(1, 320)
\set k random(1, 1000000000000000)
with new_card as (
  insert into cards (id, user_id, combine_id, valid_until, exp_month, exp_year, network, last4, number_enc, cvv_enc,
    original_amount_cents, remaining_amount_cents, ledger_account_id, provider_ref)
  values (md5('n' || :k::text)::uuid, md5('u' || :u::text)::uuid, md5('m' || :u::text)::uuid, now() + interval '1 year', 11, 2027, 'visa', '3974',
    'lDidi7S9g1dcKOa2.wt+FPVlxN4xX7b1UDDn+7w==.luoWv1q+mTJolADatElQ0g==', 'P6jR4mPLpn2RTjJX.sJe6YeJ5pO9PueX5q2ifug==.SpLe',
    99990, 99990, md5('l' || :k::text)::uuid, 'demo_card_' || :k::text)
  returning id
),
card_account as (
  insert into ledger_accounts (id, code, kind, user_id, balance_cents)
  values (md5('l' || :k::text)::uuid, 'card:' || md5('n' || :k::text)::uuid, 'card', md5('u' || :u::text)::uuid, 99990)
  returning id
),
new_journal as (
  insert into journals (id, kind, user_id, reference_id, memo)
  values (md5('j' || :k::text)::uuid, 'combine_completion', md5('u' || :u::text)::uuid, md5('m' || :u::text)::uuid, 'combine completion')
  returning id
),
new_entries as (
  insert into journal_entries (journal_id, account_id, amount_cents)
  select j.id, line.account, line.amount
  from new_journal j, (values (:funding::uuid, -104120::bigint), (md5('l' || :k::text)::uuid, 99990), (:processor::uuid, 3079),
    (:product::uuid, 1041), (:creation::uuid, 10)) as line(account, amount)
  returning 1
),
new_transaction as (
  insert into transactions (id, user_id, card_id, type, status, amount_cents, fee_cents, net_amount_cents, combine_id, journal_id)
  select j.id, md5('u' || :u::text)::uuid, md5('n' || :k::text)::uuid, 'funding', 'success', 99990, 4130, 99990, md5('m' || :u::text)::uuid, j.id from new_journal j
  returning 1
),
user_counters as (
  update users set combine_total = combine_total + 1, last_updated = now() where id = md5('u' || :u::text)::uuid returning 1
),
captured_sources as (
  update combine_sources set status = 'captured', processor_fee_cents = 1539, product_fee_cents = 520, net_cents = 49986
  where combine_id = md5('m' || :u::text)::uuid
  returning 1
),
completed as (
  update combines set status = 'completed', card_id = md5('n' || :k::text)::uuid, completed_at = now(), updated_at = now(), current_step = 7
  where id = md5('m' || :u::text)::uuid
  returning 1
),
stored_answer as (
  insert into idempotency_keys (user_id, key, fingerprint, response_status, response_body)
  values (md5('u' || :u::text)::uuid, 'k' || :k::text, md5('f' || :k::text) || md5('g' || :k::text), 201, :answer::jsonb)
  returning 1
),
captures as (
  insert into money_effects (kind, reference, user_id, payload, attempts)
  values ('capture', 'capture:' || 'a' || :k::text, md5('u' || :u::text)::uuid, '{"amountCents":52045}'::jsonb, 1),
    ('capture', 'capture:' || 'b' || :k::text, md5('u' || :u::text)::uuid, '{"amountCents":52075}'::jsonb, 1)
  returning 1
)
select id from new_card;
