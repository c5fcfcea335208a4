// The cash-out in two round trips and no explicit transaction (decision 018): one statement
// reads everything the rules need, the other does all the writing, in one implicit transaction,
// and only if the card, the plan and the payout methods are still exactly as read. Under
// contention or in a rare case it steps aside for the locked transaction (create-cashout.ts),
// which decides the same things with the same rules (cashout-rules.ts).
//
// Why it is safe:
// - All the writing is one statement: the debit, the balanced journal with its transaction row,
//   the payout method's last_used and the Idempotency-Key with its answer commit together or not
//   at all. The journal, the row and the key are written only if the debit happened.
// - The debit is conditional on the card's exact status and balance as read, and on the plan,
//   promo end and saved methods as read. The answer stored with the key is computed from those
//   figures, so it is exact when the debit happens. When anything changed, nothing is written and
//   the caller tries again.
// - The key is inserted, not claimed: a concurrent request with the same key that got there first
//   makes this insert fail on the key's primary key (after waiting for its commit), which undoes
//   this statement's debit too. The caller then finds the key and answers with what it stored.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { isPayoutMethod, type PlanId } from '../../../core/plans';
import type { CreateCashoutResponse } from '../../../contracts/cashouts';
import { namedSqlStatement } from '../../db/named-statement';
import { JOURNAL_RESULT, journalClauses, journalIdFrom, journalValues, rowsOf, type JournalResultRow } from '../../ledger/post-journal';
import { notFound } from '../../lib/errors';
import { replayStored, type StoredResponse } from '../../lib/idempotency';
import { isUniqueViolationOf } from '../../lib/transaction';
import { assertPayoutMethodUsable, cardRefusal, cashoutResponse, priceCashout, type CashoutInput } from './cashout-rules';

const IDEMPOTENCY_PRIMARY_KEY = 'idempotency_keys_user_id_key_pk';

// The user's active payout methods, in an order both statements compute alike.
const SAVED_METHODS = sql`(select coalesce(array_agg(pm.method order by pm.method), '{}') from payout_methods pm where pm.user_id = u.id and pm.status = 'active')`;

const readStatement = namedSqlStatement(
  'cashout_read',
  () => sql`
    select u.subscription, u.promo_end, u.promo_end::text as promo_end_text, ${SAVED_METHODS} as saved_methods,
      c.id as card_id, c.status as card_status, c.frozen as card_frozen, c.remaining_amount_cents, c.amount_spent_cents, c.last4,
      k.fingerprint as key_fingerprint, k.response_status as key_status, k.response_body as key_body,
      k.created_at < ${sql.placeholder('expiredBefore')}::timestamptz as key_expired
    from users u
    left join cards c on c.id = ${sql.placeholder('cardId')}::uuid and c.user_id = u.id
    left join idempotency_keys k on k.user_id = u.id and k.key = ${sql.placeholder('key')}::text
    where u.id = ${sql.placeholder('userId')}::uuid`,
);

type ReadRow = {
  subscription: string;
  promo_end: Date | string | null;
  promo_end_text: string | null;
  saved_methods: string[];
  card_id: string | null;
  card_status: string | null;
  card_frozen: boolean | null;
  remaining_amount_cents: string | number | null;
  amount_spent_cents: string | number | null;
  last4: string | null;
  key_fingerprint: string | null;
  key_status: number | null;
  key_body: unknown;
  key_expired: boolean | null;
};

const writeStatement = namedSqlStatement(
  'cashout_write',
  () => sql`
    with d as (
      update cards set
        remaining_amount_cents = remaining_amount_cents - ${sql.placeholder('amountCents')}::bigint,
        status = ${sql.placeholder('newStatus')}::text,
        closed_at = case when status <> ${sql.placeholder('newStatus')}::text then now() else closed_at end
      where id = ${sql.placeholder('cardId')}::uuid and user_id = ${sql.placeholder('userId')}::uuid and not frozen
        and status = ${sql.placeholder('cardStatus')}::text and remaining_amount_cents = ${sql.placeholder('cardRemaining')}::bigint
        and exists (
          select 1 from users u
          where u.id = ${sql.placeholder('userId')}::uuid and u.subscription = ${sql.placeholder('plan')}::text
            and u.promo_end is not distinct from ${sql.placeholder('promoEnd')}::timestamptz
            and ${SAVED_METHODS} = ${sql.placeholder('savedMethods')}::text[]
        )
      returning id
    ),
    ${journalClauses(sql`exists (select 1 from d)`)},
    m as (
      update payout_methods set last_used = ${sql.placeholder('now')}::timestamptz
      where user_id = ${sql.placeholder('userId')}::uuid and method = ${sql.placeholder('payoutMethod')}::text and status = 'active'
        and exists (select 1 from d)
      returning 1
    ),
    k as (
      insert into idempotency_keys (user_id, key, fingerprint, response_status, response_body)
      select ${sql.placeholder('userId')}::uuid, ${sql.placeholder('key')}::text, ${sql.placeholder('fingerprint')}::text,
        ${sql.placeholder('responseStatus')}::int, ${sql.placeholder('responseBody')}::jsonb
      from d
      returning 1
    )
    select (select count(*) from d) as debited, (select count(*) from k) as stored, ${JOURNAL_RESULT}`,
);

type WriteRow = JournalResultRow & { debited: string | number; stored: string | number };

export type TwoStatementOutcome =
  | { kind: 'answered'; result: StoredResponse & { replayed: boolean } }
  /** Something changed between the two statements (nothing was written): read again. */
  | { kind: 'changed' }
  /** A case for the locked transaction: the key is in use by it, or expired and to be reused. */
  | { kind: 'use-transaction' };

export async function cashoutInTwoStatements(
  app: FastifyInstance,
  request: { userId: string; input: CashoutInput; key: string; fingerprint: string; expiredBefore: Date },
): Promise<TwoStatementOutcome> {
  const { userId, input, key, fingerprint } = request;
  const now = app.now();
  const [read] = rowsOf<ReadRow>(
    await readStatement(app.db, { userId, cardId: input.cardId, key, expiredBefore: request.expiredBefore.toISOString() }),
  );
  if (!read) throw notFound('Account not found.');
  if (read.key_fingerprint !== null) {
    if (read.key_expired || read.key_status === 0) return { kind: 'use-transaction' };
    return { kind: 'answered', result: replayStored({ fingerprint: read.key_fingerprint, responseStatus: read.key_status ?? 0, responseBody: read.key_body }, fingerprint) };
  }

  // The same rules, in the same order, as the locked transaction.
  const plan = read.subscription as PlanId;
  const savedMethods = read.saved_methods;
  assertPayoutMethodUsable(plan, savedMethods.filter(isPayoutMethod), input.payoutMethod);
  const remainingCents = Number(read.remaining_amount_cents);
  const card = read.card_id === null ? undefined : { status: read.card_status ?? '', frozen: read.card_frozen ?? false, remainingAmountCents: remainingCents };
  const refusal = cardRefusal(card, input.amountCents);
  if (refusal) throw refusal;

  const promoEnd = read.promo_end === null ? null : new Date(read.promo_end);
  const priced = priceCashout(app, { ...input, userId, plan, promoEnd, now, transactionId: randomUUID() });
  const afterCents = remainingCents - input.amountCents;
  const newStatus = afterCents === 0 ? 'cashed_out' : (read.card_status ?? '');
  // Demo payouts make up an id; live cash-outs are refused before this point (spec §8).
  const payout = await app.adapters.payouts.send({ method: input.payoutMethod, amountCents: priced.fee.netCents, reference: priced.record.id });
  const body: CreateCashoutResponse = cashoutResponse(
    priced,
    { id: input.cardId, last4: read.last4 ?? '', status: newStatus, remainingAmountCents: afterCents, amountSpentCents: Number(read.amount_spent_cents) },
    payout.payoutId,
  );

  const { values: journal, ...expected } = journalValues(priced.journal);
  let written: WriteRow | undefined;
  try {
    [written] = rowsOf<WriteRow>(
      await writeStatement(app.db, {
        ...journal,
        userId,
        cardId: input.cardId,
        amountCents: input.amountCents,
        newStatus,
        cardStatus: read.card_status,
        cardRemaining: remainingCents,
        plan,
        promoEnd: read.promo_end_text,
        savedMethods,
        now: now.toISOString(),
        payoutMethod: input.payoutMethod,
        key,
        fingerprint,
        responseStatus: 201,
        responseBody: JSON.stringify(body),
      }),
    );
  } catch (error) {
    // The same key, a moment earlier: its statement committed first and this one undid itself.
    if (isUniqueViolationOf(error, IDEMPOTENCY_PRIMARY_KEY)) return { kind: 'changed' };
    throw error;
  }
  if (!written || Number(written.debited) === 0) {
    if (written?.journal_id || Number(written?.stored) > 0) throw new Error('cashoutInTwoStatements: a journal or a key was written without its debit');
    return { kind: 'changed' };
  }
  journalIdFrom(written, expected);
  if (Number(written.stored) !== 1) throw new Error('cashoutInTwoStatements: the debit was written without its Idempotency-Key');
  return { kind: 'answered', result: { status: 201, body, replayed: false } };
}
