// The completion's writer: carries out its write set (completion-decision.ts) in the completion's
// transaction, after the reader's locks (complete-combine.ts). First the conditional writes whose
// refusal the decision named: the launch-promo spot (a shared counter that can never pass its
// limit) and the debits of the cards used as sources (each only if the card can still pay). Then
// one statement (docs/history/performance-log.md, round 7) writes everything else: the card and its
// ledger account, the balanced journal with its transaction rows, the BNPL rebates, the user's
// counters, every source marked captured, the combine itself, the outbox's rows (claimed by this
// writer, decision 140) and the Idempotency-Key's answer. Last, the journal of each rebate paid at
// once. A failed check throws, and the transaction rolls all of it back.
//
// One fixed text (lists travel as arrays), built once (db/named-statement.ts); each piece's values
// are merged by placeholderValues, which refuses a name two pieces give. Sibling WITH clauses
// do not see each other's rows, so the card's ledger account starts with the card's balance and the
// journal takes its id from the clause that inserted it (ledger/post-journal.ts). Foreign keys are
// checked at the end of the statement, when every row exists; the journal's balance at commit.
import { and, eq, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { namedSqlStatement, placeholderValues, rowsWritten } from '../../db/named-statement';
import { systemPromos } from '../../db/schema';
import { effectsClause, effectsValues } from '../../effects/money-effects';
import { cardWithAccountClauses, debitCard, type DebitInput, type NewCard } from '../../ledger/card-accounts';
import { JOURNAL_RESULT, journalClauses, journalIdFrom, journalValues, rowsOf, type JournalInput, type JournalResultRow } from '../../ledger/post-journal';
import { postRebateJournal } from '../../ledger/rebate-journal';
import type { AppError } from '../../lib/errors';
import { storeClause, storedColumn } from '../../lib/idempotency';
import type { WriteContext, Written } from '../../money/run-money-operation';
import { PROMO_COUNTER_ID } from '../system';
import type { SourceRow } from './combine-view';

const p = (name: string) => sql.placeholder(name);

/** The statement's text (exported for its plan's test). */
export function completionWriteSql() {
  return sql`
    with ${cardWithAccountClauses()},
    ${journalClauses(undefined, sql`card_account`)},
    rebate_rows as (
      insert into rebates (id, user_id, combine_id, card_id, source_id, transaction_id, bnpl_fee_max_cents, bnpl_fee_actual_cents,
        rebate_amount_cents, status, payout_method, processed_at)
      select r.id, ${p('userId')}::uuid, ${p('combineId')}::uuid, (select id from new_card), r.source_id, r.transaction_id, r.fee_max, r.fee_actual,
        r.amount, r.status, r.payout_method, case when r.status = 'processed' then ${p('now')}::timestamptz end
      from unnest(${p('rebateIds')}::uuid[], ${p('rebateSourceIds')}::uuid[], ${p('rebateTransactionIds')}::text[],
        ${p('rebateFeeMaxes')}::bigint[], ${p('rebateFeeActuals')}::bigint[], ${p('rebateAmounts')}::bigint[], ${p('rebateStatuses')}::text[],
        ${p('rebatePayoutMethods')}::text[])
        as r(id, source_id, transaction_id, fee_max, fee_actual, amount, status, payout_method)
      returning 1
    ),
    user_counters as (
      update users set
        combine_total = ${p('combineTotal')}::int, boosts_available = ${p('boostsAvailable')}::int, boosts_used = ${p('boostsUsed')}::int,
        last_updated = ${p('now')}::timestamptz,
        promo_50off_first_year = promo_50off_first_year or ${p('promoApplied')}::boolean,
        promo_start = case when ${p('promoApplied')}::boolean then ${p('now')}::timestamptz else promo_start end,
        promo_end = case when ${p('promoApplied')}::boolean then ${p('promoEnd')}::timestamptz else promo_end end
      where id = ${p('userId')}::uuid
      returning 1
    ),
    captured_sources as (
      update combine_sources s set status = 'captured', processor_fee_cents = v.processor_fee, product_fee_cents = v.product_fee,
        net_cents = v.net, bnpl_fee_max_cents = v.bnpl_fee_max, bnpl_fee_actual_cents = v.bnpl_fee_actual, rebate_cents = v.rebate,
        creation_fee_cents = v.creation_fee
      from unnest(${p('sourceIds')}::uuid[], ${p('processorFees')}::bigint[], ${p('productFees')}::bigint[], ${p('nets')}::bigint[],
        ${p('bnplFeeMaxes')}::bigint[], ${p('bnplFeeActuals')}::bigint[], ${p('rebates')}::bigint[], ${p('creationFees')}::bigint[])
        as v(id, processor_fee, product_fee, net, bnpl_fee_max, bnpl_fee_actual, rebate, creation_fee)
      where s.id = v.id and s.combine_id = ${p('combineId')}::uuid
      returning 1
    ),
    completed as (
      update combines set status = 'completed', card_id = (select id from new_card), completed_at = ${p('now')}::timestamptz,
        updated_at = ${p('now')}::timestamptz, current_step = 7, use_boost = ${p('useBoost')}::boolean,
        creation_fee_source_idx = ${p('creationFeeSourceIdx')}::int, card_type = ${p('cardType')}::text, promo_applied = ${p('promoApplied')}::boolean,
        promo_discount = ${p('promoDiscount')}::boolean,
        bnpl_fee_max_cents = ${p('bnplFeeMaxCents')}::bigint, bnpl_fee_actual_cents = ${p('bnplFeeActualCents')}::bigint,
        rebate_id = ${p('rebateId')}::uuid
      where id = ${p('combineId')}::uuid
      returning 1
    ),
    ${effectsClause()},
    ${storeClause()}
    select ${JOURNAL_RESULT}, ${rowsWritten('money_effect_rows')} as effect_count, (select id from new_card) as card_id, ${rowsWritten('rebate_rows')} as rebate_count,
      ${rowsWritten('user_counters')} as user_count, ${rowsWritten('captured_sources')} as captured_count,
      ${rowsWritten('completed')} as completed_count, ${storedColumn()}`;
}

const completionWriteStatement = namedSqlStatement('complete_combine_write', completionWriteSql);

type WriteRow = JournalResultRow & {
  card_id: string | null;
  rebate_count: number;
  user_count: number;
  captured_count: number;
  completed_count: number;
  effect_count: number;
  stored: number;
};

export type NewRebate = {
  id: string;
  sourceId: string;
  transactionId: string | null;
  bnplFeeMaxCents: number;
  bnplFeeActualCents: number;
  rebateAmountCents: number;
  status: 'pending' | 'processed';
  payoutMethod: string | null;
};

export type CompletionWrite = {
  /** Claim a launch-promo spot first; none left: this refusal (the figures without the promo). */
  promoSpot: { refusal: AppError } | null;
  /** The cards used as sources, each debited only if it can still pay; one that cannot: `sourceRefusal`. */
  debits: DebitInput[];
  sourceRefusal: AppError;
  /** The journal of each rebate paid at once, written after the rebate's row. */
  rebateJournals: Array<{ rebateId: string; journal: JournalInput }>;
  userId: string;
  combineId: string;
  now: Date;
  /** The card's row and its placeholders' values (ledger/card-accounts.ts cardWithAccountValues). */
  card: { values: Record<string, unknown>; row: NewCard };
  journal: JournalInput;
  rebates: NewRebate[];
  counters: { combineTotal: number; boostsAvailable: number; boostsUsed: number };
  promoApplied: boolean;
  promoEnd: Date;
  /** The sources with their final figures (status captured). */
  captured: SourceRow[];
  combine: { useBoost: boolean; creationFeeSourceIdx: number; cardType: string; promoDiscount: boolean; bnplFeeMaxCents: number; bnplFeeActualCents: number; rebateId: string | null };
};

export async function writeCompletion(tx: Tx, write: CompletionWrite, context: WriteContext): Promise<Written> {
  if (write.promoSpot && !(await claimPromoSpot(tx))) throw write.promoSpot.refusal;
  for (const debit of write.debits) {
    if (!(await debitCard(tx, debit))) throw write.sourceRefusal;
  }
  const journal = journalValues(write.journal);
  const values = { ...writeValues(write, journal.values), captures: effectsValues([...context.effects], context.effectLeaseSeconds), answer: context.store };
  const [row] = rowsOf<WriteRow>(await completionWriteStatement(tx, placeholderValues(values)));
  checkWritten(row, write, journal, context.effects.length);
  for (const paid of write.rebateJournals) await postRebateJournal(tx, paid.rebateId, paid.journal);
  return 'written';
}

/** The launch promo: a conditional increment that can never pass its limit (and a CHECK behind it). */
async function claimPromoSpot(tx: Tx): Promise<boolean> {
  const claimed = await tx
    .update(systemPromos)
    .set({ first100PromoClaimed: sql`${systemPromos.first100PromoClaimed} + 1` })
    .where(and(eq(systemPromos.id, PROMO_COUNTER_ID), sql`${systemPromos.first100PromoClaimed} < ${systemPromos.limitCount}`))
    .returning({ claimed: systemPromos.first100PromoClaimed });
  return claimed.length > 0;
}

function writeValues(write: CompletionWrite, journal: Record<string, unknown>): Record<string, Record<string, unknown>> {
  const { card, captured, rebates } = write;
  return {
    card: card.values,
    journal,
    completion: {
      userId: write.userId,
      combineId: write.combineId,
      now: write.now.toISOString(),
      promoEnd: write.promoEnd.toISOString(),
      promoApplied: write.promoApplied,
      ...write.counters,
      ...write.combine,
      rebateIds: rebates.map((r) => r.id),
      rebateSourceIds: rebates.map((r) => r.sourceId),
      rebateTransactionIds: rebates.map((r) => r.transactionId),
      rebateFeeMaxes: rebates.map((r) => r.bnplFeeMaxCents),
      rebateFeeActuals: rebates.map((r) => r.bnplFeeActualCents),
      rebateAmounts: rebates.map((r) => r.rebateAmountCents),
      rebateStatuses: rebates.map((r) => r.status),
      rebatePayoutMethods: rebates.map((r) => r.payoutMethod),
      sourceIds: captured.map((s) => s.id),
      processorFees: captured.map((s) => s.processorFeeCents),
      productFees: captured.map((s) => s.productFeeCents),
      nets: captured.map((s) => s.netCents),
      bnplFeeMaxes: captured.map((s) => s.bnplFeeMaxCents),
      bnplFeeActuals: captured.map((s) => s.bnplFeeActualCents),
      rebates: captured.map((s) => s.rebateCents),
      creationFees: captured.map((s) => s.creationFeeCents),
    },
  };
}

// Each count is a row the answer is built from: a short one is a bug. In the transaction, throwing
// rolls it all back.
function checkWritten(row: WriteRow | undefined, write: CompletionWrite, journal: ReturnType<typeof journalValues>, effectCount: number): asserts row is WriteRow {
  journalIdFrom(row, journal);
  if (row?.card_id !== write.card.row.id) throw new Error('the completion wrote no card');
  if (row.completed_count !== 1 || row.user_count !== 1) throw new Error('the completion did not update its combine and user');
  if (row.captured_count !== write.captured.length) throw new Error('source capture updated fewer rows than the combine has sources');
  if (row.rebate_count !== write.rebates.length) throw new Error('the completion wrote fewer rebates than it owes');
  if (row.effect_count !== effectCount) throw new Error('the completion wrote fewer effects than it decided');
  if (row.stored !== 1) throw new Error('the completion did not store its answer');
}
