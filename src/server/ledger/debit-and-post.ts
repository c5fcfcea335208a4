// A card debit and the journal that records it, in one statement (one round trip): the journal,
// its entries and its transaction rows are written only if the conditional debit took the money.
// Used by the cash-out, the hottest single-card movement (docs/history/performance-log.md, round 4).
import { sql } from 'drizzle-orm';
import type { Tx } from '../db/client';
import { namedSqlStatement, placeholderValues } from '../db/named-statement';
import { balanceChangeFrom, debitCardSql, debitValues, type CardBalanceChange, type DebitInput, type DebitRow } from './card-accounts';
import { JOURNAL_RESULT, journalClauses, journalIdFrom, journalValues, rowsOf, type JournalInput, type JournalResultRow } from './post-journal';

const debitAndPostStatement = namedSqlStatement(
  'debit_and_post_journal',
  () => sql`
    with debited_card as (${debitCardSql()}),
    ${journalClauses(sql`exists (select 1 from debited_card)`)}
    select debited_card.*, ${JOURNAL_RESULT} from (select 1) as one left join debited_card on true
  `,
);

/**
 * debitCard, then postJournal, as one statement. Null when the card cannot pay (nothing is
 * written; the caller says why); otherwise the card's new figures and the journal's id.
 */
export async function debitAndPostJournal(tx: Tx, debit: DebitInput, journal: JournalInput): Promise<{ card: CardBalanceChange; journalId: string } | null> {
  const { values, ...expected } = journalValues(journal);
  const row = rowsOf<Partial<DebitRow> & JournalResultRow>(await debitAndPostStatement(tx, placeholderValues({ journal: values, debit: debitValues(debit) })))[0];
  if (!row?.status) {
    if (row?.journal_id) throw new Error('debitAndPostJournal: a journal was written without its debit');
    return null;
  }
  return { card: balanceChangeFrom(row as DebitRow), journalId: journalIdFrom(row, expected) };
}
