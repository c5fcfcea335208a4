// A paid BNPL rebate's journal (rebates payable → payouts) and its link from the rebate, as one
// statement: the same for a rebate paid at completion (features/combines/completion-write.ts) and
// one paid later (features/payout-methods/rebate-payouts-write.ts).
import { sql } from 'drizzle-orm';
import type { Tx } from '../db/client';
import { namedSqlStatement, placeholderValues, rowsWritten } from '../db/named-statement';
import { JOURNAL_RESULT, journalClauses, journalIdFrom, journalValues, rowsOf, type JournalInput, type JournalResultRow } from './post-journal';

const journalStatement = namedSqlStatement(
  'rebate_payout_journal',
  () => sql`
    with ${journalClauses()},
    linked as (update rebates set journal_id = (select id from new_journal) where id = ${sql.placeholder('rebateId')}::uuid returning 1)
    select ${JOURNAL_RESULT}, ${rowsWritten('linked')} as linked_count`,
);

/** Writes a paid rebate's journal and records it on the rebate. */
export async function postRebateJournal(tx: Tx, rebateId: string, journal: JournalInput): Promise<string> {
  const { values, ...expected } = journalValues(journal);
  const [row] = rowsOf<JournalResultRow & { linked_count: number }>(await journalStatement(tx, placeholderValues({ journal: values, rebate: { rebateId } })));
  const journalId = journalIdFrom(row, expected);
  if (Number(row?.linked_count) !== 1) throw new Error(`postRebateJournal: rebate ${rebateId} not found`);
  return journalId;
}
