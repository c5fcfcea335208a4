// The completion's writer: carries out its write set (completion-decision.ts) in the completion's
// transaction, after the reader's locks (complete-combine.ts). First the conditional writes whose
// refusal the decision named: the launch-promo spot (a shared counter that can never pass its
// limit) and the debits of the cards used as sources (each only if the card can still pay). Then
// one statement (completion-statement.ts; docs/history/performance-log.md, round 7) writes
// everything else, and last the journal of each rebate paid at once. A failed check throws, and
// the transaction rolls all of it back.
import { and, eq, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { placeholderValues } from '../../db/named-statement';
import { systemPromos } from '../../db/schema';
import type { CompleteCombineResponse } from '../../../contracts/combines';
import { effectsValues } from '../../effects/money-effects';
import { eventsValues, newEvent } from '../../events/events';
import { debitCard, type DebitInput, type NewCard } from '../../ledger/card-accounts';
import { journalIdFrom, journalValues, rowsOf, type JournalInput, type JournalResultRow } from '../../ledger/post-journal';
import { postRebateJournal } from '../../ledger/rebate-journal';
import type { AppError } from '../../lib/errors';
import type { WriteContext, Written } from '../../money/run-money-operation';
import { PROMO_COUNTER_ID } from '../system';
import type { SourceRow } from './combine-view';
import { completionWriteStatement } from './completion-statement';

type WriteRow = JournalResultRow & {
  card_id: string | null;
  rebate_count: number;
  user_count: number;
  captured_count: number;
  completed_count: number;
  effect_count: number;
  event_count: number;
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
  // The combine and its card as the answer shows them (decision 191).
  const { combine, card } = context.answer.body as CompleteCombineResponse;
  const reported = [newEvent(write.userId, 'combine.completed', combine, write.now), newEvent(write.userId, 'card.created', card, write.now)];
  const values = {
    ...writeValues(write, journal.values),
    captures: effectsValues([...context.effects], context.effectLeaseSeconds),
    events: eventsValues(reported),
    answer: context.store,
  };
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
  if (row.event_count !== 2) throw new Error('the completion wrote no events');
  if (row.stored !== 1) throw new Error('the completion did not store its answer');
}
