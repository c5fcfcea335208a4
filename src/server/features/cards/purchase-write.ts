// The purchase's writer: one statement writes its write set (purchase-decision.ts) with the
// Idempotency-Key's answer. Approved: the conditional debit, and only with it the balanced journal
// (card → merchants) with its transaction row. Declined: the declined transaction row. The reader
// locked the card, so the debit takes what the decision expected; it stays the guard, and a debit
// that does not happen, or leaves other figures, is a bug: throwing rolls the transaction back.
// Either way the statement writes its event (card.authorization.approved or .declined, decision 191).
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { namedSqlStatement, placeholderValues, rowsWritten } from '../../db/named-statement';
import { eventsClause, eventsValues, newEvent } from '../../events/events';
import { balanceChangeFrom, debitCardSql, debitValues, type DebitRow } from '../../ledger/card-accounts';
import { JOURNAL_RESULT, journalClauses, journalIdFrom, journalValues, rowsOf, type JournalResultRow } from '../../ledger/post-journal';
import { storeClause, storedColumn } from '../../lib/idempotency';
import type { WriteContext, Written } from '../../money/run-money-operation';
import { toTransactionView } from './list-card-transactions';
import type { PurchaseWrite } from './purchase-decision';

const p = (name: string) => sql.placeholder(name);
const DEBITED = sql`exists (select 1 from debited_card)`;

// The card closes, when a purchase empties a single-use card, at the moment the answer shows. A
// 'first' merchant lock becomes this merchant's with the debit (docs/rules.md#card-controls), or not at all.
const approvedStatement = namedSqlStatement(
  'purchase_approved_write',
  () => sql`
    with debited_card as (${debitCardSql(sql`true`, sql`${p('closedAt')}::timestamptz`)}),
    ${journalClauses(DEBITED)},
    locked as (
      update card_spend_controls set controls = jsonb_set(controls, '{merchantLock}', ${p('lockAfter')}::jsonb), updated_at = now()
      where card_id = ${p('cardId')}::uuid and ${p('lockAfter')}::jsonb is not null and controls->'merchantLock'->>'mode' = 'first' and ${DEBITED}
      returning 1
    ),
    ${eventsClause(DEBITED)},
    ${storeClause()}
    select debited.remaining_amount_cents, debited.amount_spent_cents, debited.status, debited.last4, ${JOURNAL_RESULT}, ${rowsWritten('locked')} as locked_count,
      ${rowsWritten('event_rows')} as event_count, ${storedColumn()}
    from (select 1) as one left join debited_card debited on true`,
);

const declinedStatement = namedSqlStatement(
  'purchase_declined_write',
  () => sql`
    with declined as (
      insert into transactions (id, user_id, card_id, type, status, amount_cents, fee_cents, net_amount_cents, merchant, category, decline_reason,
        decline_detail, created_at, simulated, test_source, environment)
      values (${p('id')}::uuid, ${p('userId')}::uuid, ${p('cardId')}::uuid, 'purchase', 'declined', ${p('amountCents')}::bigint, 0, ${p('amountCents')}::bigint,
        ${p('merchant')}::text, ${p('category')}::text, ${p('declineReason')}::text, ${p('declineDetail')}::jsonb, ${p('createdAt')}::timestamptz,
        ${p('simulated')}::boolean, ${p('testSource')}::text, ${p('environment')}::text)
      returning 1
    ),
    ${eventsClause()},
    ${storeClause()}
    select ${rowsWritten('declined')} as declined_count, ${rowsWritten('event_rows')} as event_count, ${storedColumn()}`,
);

type ApprovedRow = JournalResultRow & Partial<DebitRow> & { locked_count: number; event_count: number; stored: number };

export async function writePurchase(tx: Tx, write: PurchaseWrite, context: WriteContext): Promise<Written> {
  if ('declined' in write) {
    const { id, userId, cardId, amountCents, merchant, category, declineReason, declineDetail, createdAt, simulated, testSource, environment } = write.declined;
    const detail = declineDetail === null ? null : JSON.stringify(declineDetail);
    const own = { id, userId, cardId, amountCents, merchant, category, declineReason, declineDetail: detail, createdAt: createdAt.toISOString(), simulated, testSource, environment };
    // The declined purchase as the card's list shows it, its reason with it.
    const declined = eventsValues([newEvent(userId, 'card.authorization.declined', { transaction: toTransactionView(write.declined) }, createdAt)]);
    const [row] = rowsOf<{ declined_count: number; event_count: number; stored: number }>(
      await declinedStatement(tx, placeholderValues({ own, events: declined, answer: context.store })),
    );
    if (Number(row?.declined_count) !== 1 || Number(row?.event_count) !== 1 || Number(row?.stored) !== 1) throw new Error('writePurchase: the decline, its event or its answer was not written');
    return 'written';
  }
  const { debit, journal, cardAfter, lockAfter } = write.approved;
  const { values, ...expected } = journalValues(journal);
  // Used only when the debit empties a card that closes at zero, whose cardAfter closes then.
  const closing = { closedAt: cardAfter.closedAt?.toISOString() ?? null };
  const lock = { lockAfter: lockAfter === null ? null : JSON.stringify(lockAfter) };
  const approved = eventsValues([newEvent(debit.userId, 'card.authorization.approved', context.answer.body as object, journal.transactions![0]!.createdAt)]);
  const [row] = rowsOf<ApprovedRow>(
    await approvedStatement(tx, placeholderValues({ journal: values, debit: debitValues(debit), closing, lock, events: approved, answer: context.store })),
  );
  if (!row?.status) throw new Error('writePurchase: the locked card did not pay');
  const card = balanceChangeFrom(row as DebitRow);
  if (card.remainingAmountCents !== cardAfter.remainingAmountCents || card.amountSpentCents !== cardAfter.amountSpentCents || card.status !== cardAfter.status) {
    throw new Error('writePurchase: the card changed under its lock');
  }
  // The reader read the 'first' lock under the card's lock, and only the card's lock holder edits it.
  if (Number(row.locked_count) !== (lockAfter === null ? 0 : 1)) throw new Error('writePurchase: the merchant lock changed under the card lock');
  journalIdFrom(row, expected);
  if (Number(row.event_count) !== 1 || Number(row.stored) !== 1) throw new Error('writePurchase: the event or the answer was not stored');
  return 'written';
}
