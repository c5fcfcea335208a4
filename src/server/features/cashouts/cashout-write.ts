// The cash-out's writer: one statement writes its whole write set (cashout-rules.ts) in the cash-out's
// transaction: the conditional debit, the balanced journal with its transaction row (only with the
// debit), the payout method's last use, the payout's outbox row (claimed by this writer, decision
// 140) and the Idempotency-Key's answer. The reader locked the card, so the debit takes what the
// decision expected; the checks after it are alarms for what the locks already guarantee, and a
// failed one rolls the transaction back.
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { namedSqlStatement, placeholderValues, rowsWritten } from '../../db/named-statement';
import { effectsClause, effectsValues } from '../../effects/money-effects';
import { balanceChangeFrom, debitCardSql, debitValues, type DebitRow } from '../../ledger/card-accounts';
import { JOURNAL_RESULT, journalClauses, journalIdFrom, journalValues, rowsOf, type JournalResultRow } from '../../ledger/post-journal';
import { storeClause, storedColumn } from '../../lib/idempotency';
import type { WriteContext } from '../../money/run-money-operation';
import type { CashoutWrite } from './cashout-rules';

const DEBITED = sql`exists (select 1 from debited_card)`;

const writeStatement = namedSqlStatement(
  'cashout_write',
  () => sql`
    with debited_card as (${debitCardSql()}),
    ${journalClauses(DEBITED)},
    method_last_used as (
      update payout_methods set last_used = ${sql.placeholder('now')}::timestamptz
      where user_id = ${sql.placeholder('userId')}::uuid and method = ${sql.placeholder('payoutMethod')}::text and status = 'active'
        and ${sql.placeholder('marksMethodUsed')}::boolean and ${DEBITED}
      returning 1
    ),
    ${effectsClause(DEBITED)},
    ${storeClause()}
    select debited.remaining_amount_cents, debited.amount_spent_cents, debited.status, debited.last4, ${JOURNAL_RESULT},
      ${rowsWritten('money_effect_rows')} as effect_count, ${storedColumn()}
    from (select 1) as one left join debited_card debited on true`,
);

type WriteRow = JournalResultRow & Partial<DebitRow> & { effect_count: number; stored: number };

export async function writeCashout(tx: Tx, write: CashoutWrite, context: WriteContext): Promise<void> {
  const { values: journal, ...expected } = journalValues(write.journal);
  const [row] = rowsOf<WriteRow>(
    await writeStatement(
      tx,
      placeholderValues({
        journal,
        debit: debitValues(write.debit),
        payout: effectsValues([...context.effects], context.effectLeaseSeconds),
        answer: context.store,
        cashout: { now: write.journal.transactions![0]!.createdAt.toISOString(), payoutMethod: write.payoutMethod, marksMethodUsed: write.marksMethodUsed },
      }),
    ),
  );
  if (!row?.status) throw new Error('writeCashout: the locked card did not pay');
  const card = balanceChangeFrom(row as DebitRow);
  const after = write.cardAfter;
  if (card.remainingAmountCents !== after.remainingAmountCents || card.amountSpentCents !== after.amountSpentCents || card.status !== after.status) {
    throw new Error('writeCashout: the card changed under its lock');
  }
  journalIdFrom(row, expected);
  if (Number(row.effect_count) !== context.effects.length || Number(row.stored) !== 1) throw new Error('writeCashout: the payout or the answer was not written');
}
