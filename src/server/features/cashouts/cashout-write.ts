// The cash-out's writer: one statement writes its whole write set (cashout-rules.ts): the
// conditional debit, the balanced journal with its transaction row (only with the debit), the
// payout method's last use, the payout's outbox row (claimed by this writer, decision 140), the
// `cashout.created` event (decision 191) and the Idempotency-Key's answer. It takes the reader's guard (money/run-money-operation.ts):
// - lock: in the cash-out's transaction, after the reader locked the user and the card, so the
//   debit takes what the decision expected; the checks after it are alarms for what the locks
//   already guarantee, and a failed one rolls the transaction back.
// - versions: on its own, committing as it ends. `facts_held` share-locks the user only if its row
//   is the version read (`xmin`, which every update of the row changes: the plan, the promo end)
//   and the chosen payout method is still active with the destination the payout carries; the
//   debit happens only with that lock and only if the card still holds what it held when read. A
//   row another request changed while this statement waited for it is judged as that request
//   committed it (PostgreSQL re-checks a locked or updated row's conditions on its newest
//   version), and whatever changed leaves the debit, and so everything else, unwritten. The key is
//   inserted with its answer, only with the debit.
//   The methods are read as the statement began, not re-checked after the wait: every change of a
//   payout method locks its user first and updates the user's row in the same transaction
//   (payout-methods-service.ts, close-account.ts), so a change committed during the wait has
//   changed the user's version. The method is not locked: the debit's own last-use update takes
//   its row after the card, in the same order as under the lock guard, so two cash-outs of one
//   user never wait for each other in opposite orders.
import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { namedSqlStatement, placeholderValues, rowsWritten } from '../../db/named-statement';
import type { CreateCashoutResponse } from '../../../contracts/cashouts';
import { effectsClause, effectsValues } from '../../effects/money-effects';
import { eventsClause, eventsValues, newEvent } from '../../events/events';
import { balanceChangeFrom, debitCardSql, debitValues, type DebitRow } from '../../ledger/card-accounts';
import { JOURNAL_RESULT, journalClauses, journalIdFrom, journalValues, rowsOf, type JournalResultRow } from '../../ledger/post-journal';
import { storeClause, storedColumn, storeNewKeyClause } from '../../lib/idempotency';
import type { WriteContext, Written } from '../../money/run-money-operation';
import type { CashoutWrite } from './cashout-rules';

const DEBITED = sql`exists (select 1 from debited_card)`;
const p = (name: string) => sql.placeholder(name);

// Lock order as everywhere: the user, then the card, then the method's last use. The debit's
// condition on facts_held is evaluated once, before the card is scanned.
const FACTS_HELD = sql`facts_held as (
      select 1 from users u
      where u.id = ${p('userId')}::uuid and u.xmin = ${p('userVersion')}::xid
        and exists (select 1 from payout_methods pm where pm.user_id = u.id and pm.method = ${p('payoutMethod')}::text
          and pm.status = 'active' and pm.destination_ref = ${p('destination')}::text)
      for share
    ),`;
const CARD_AS_READ = sql`status = ${p('statusBefore')}::text and remaining_amount_cents = ${p('remainingBefore')}::bigint
      and amount_spent_cents = ${p('spentBefore')}::bigint and exists (select 1 from facts_held)`;

function cashoutWriteSql(guard: WriteContext['guard']): SQL {
  const versions = guard === 'versions';
  return sql`
    with ${versions ? FACTS_HELD : sql``}
    debited_card as (${debitCardSql(versions ? CARD_AS_READ : undefined)}),
    ${journalClauses(DEBITED)},
    method_last_used as (
      update payout_methods set last_used = ${p('now')}::timestamptz
      where user_id = ${p('userId')}::uuid and method = ${p('payoutMethod')}::text and status = 'active'
        and ${p('marksMethodUsed')}::boolean and ${DEBITED}
      returning 1
    ),
    ${effectsClause(DEBITED)},
    ${eventsClause(DEBITED)},
    ${versions ? storeNewKeyClause(DEBITED) : storeClause()}
    select debited.remaining_amount_cents, debited.amount_spent_cents, debited.status, debited.last4, ${JOURNAL_RESULT},
      ${rowsWritten('money_effect_rows')} as effect_count,
      ${rowsWritten('event_rows')} as event_count, ${storedColumn()}
    from (select 1) as one left join debited_card debited on true`;
}

const writeStatements = {
  lock: namedSqlStatement('cashout_write', () => cashoutWriteSql('lock')),
  versions: namedSqlStatement('cashout_write_versions', () => cashoutWriteSql('versions')),
};

type WriteRow = JournalResultRow & Partial<DebitRow> & { effect_count: number; event_count: number; stored: number };

export async function writeCashout(db: DbOrTx, write: CashoutWrite, context: WriteContext): Promise<Written> {
  const { values: journal, ...expected } = journalValues(write.journal);
  const { decidedOn } = write;
  const now = write.journal.transactions![0]!.createdAt;
  // Only with the debit, as everything else here (docs/rules.md#webhooks).
  const created = newEvent(write.userId, 'cashout.created', (context.answer.body as CreateCashoutResponse).cashout, now);
  const [row] = rowsOf<WriteRow>(
    await writeStatements[context.guard](
      db,
      placeholderValues({
        journal,
        debit: debitValues(write.debit),
        payout: effectsValues([...context.effects], context.effectLeaseSeconds),
        answer: context.store,
        events: eventsValues([created]),
        cashout: {
          now: now.toISOString(),
          payoutMethod: write.payoutMethod,
          marksMethodUsed: write.marksMethodUsed,
          ...(context.guard === 'versions' && {
            userVersion: decidedOn.userVersion,
            destination: decidedOn.destination,
            statusBefore: decidedOn.cardBefore.status,
            remainingBefore: decidedOn.cardBefore.remainingAmountCents,
            spentBefore: decidedOn.cardBefore.amountSpentCents,
          }),
        },
      }),
    ),
  );
  if (!row?.status) {
    if (context.guard === 'versions') return 'facts_changed';
    throw new Error('writeCashout: the locked card did not pay');
  }
  // From here on, with versions, the statement has committed: a failed check is a bug to see, not
  // a state to undo.
  const card = balanceChangeFrom(row as DebitRow);
  const after = write.cardAfter;
  if (card.remainingAmountCents !== after.remainingAmountCents || card.amountSpentCents !== after.amountSpentCents || card.status !== after.status) {
    throw new Error('writeCashout: the card changed under its guard');
  }
  journalIdFrom(row, expected);
  if (Number(row.effect_count) !== context.effects.length || Number(row.event_count) !== 1 || Number(row.stored) !== 1) {
    throw new Error('writeCashout: the payout, its event or the answer was not written');
  }
  return 'written';
}
