-- 320 users (ten per pgbench client, so that two clients seldom want the same rows at once, as
-- with the bench's own users), each with a card of ample balance and its
-- ledger account, an ACH payout method, and a draft of 2 sources that the completion script
-- marks completed again and again (the rows are rewritten, which is what a completion costs).
-- Ids are md5 of a letter and the user's number, so the pgbench scripts can name them.
insert into users (id, email, password_hash, subscription)
  select md5('u' || n)::uuid, 'rows' || n || '@bench.test', 'not-a-hash', 'free' from generate_series(1, 320) n;
insert into ledger_accounts (id, code, kind, user_id, balance_cents)
  select md5('a' || n)::uuid, 'card:' || md5('c' || n)::uuid, 'card', md5('u' || n)::uuid, 100000000000 from generate_series(1, 320) n;
insert into cards (id, user_id, valid_until, exp_month, exp_year, network, last4, number_enc, cvv_enc,
    original_amount_cents, remaining_amount_cents, ledger_account_id)
  select md5('c' || n)::uuid, md5('u' || n)::uuid, now() + interval '1 year', 12, 2027, 'visa', '4242',
    repeat('x', 64), repeat('y', 48), 100000000000, 100000000000, md5('a' || n)::uuid from generate_series(1, 320) n;
insert into payout_methods (user_id, method) select md5('u' || n)::uuid, 'ach' from generate_series(1, 320) n;
insert into combines (id, user_id, status, base_amount_cents, total_amount_cents, current_step)
  select md5('m' || n)::uuid, md5('u' || n)::uuid, 'in_progress', 100000, 100000, 6 from generate_series(1, 320) n;
insert into combine_sources (id, combine_id, user_id, position, type, provider, charge_cents)
  select md5('s' || n || '-' || p)::uuid, md5('m' || n)::uuid, md5('u' || n)::uuid, p, 'credit', 'Visa', 52000
  from generate_series(1, 320) n, generate_series(0, 1) p;
