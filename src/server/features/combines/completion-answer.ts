// The completion's answer, built from the rows as its write leaves them: the writer writes them
// while the user and the combine are locked, so nothing else changes them, and nothing is read back.
import { BOOST_EARNED_MESSAGE } from '../../../core/boosts';
import { maskCardNumber } from '../../../core/cards';
import type { CompletionPlan } from '../../../core/plan-completion';
import type { CompleteCombineResponse } from '../../../contracts/combines';
import type { rebates } from '../../db/schema';
import type { CardRow } from '../../ledger/card-accounts';
import { combineViewOf } from './combine-view';
import type { CompleteInput, LoadedCompletion } from './completion-facts';
import type { CompletionWrite } from './completion-write';
import { pricingFor } from './pricing';
import { computeQuote } from './quote-service';

type Written = { read: LoadedCompletion; plan: CompletionPlan; input: CompleteInput; write: CompletionWrite; cardRow: CardRow };

export function completionAnswer({ read, plan, input, write, cardRow }: Written): CompleteCombineResponse {
  const { row, sources, user } = read.loaded;
  const { now, promoApplied, userId, combineId } = write;
  const cardId = cardRow.id;
  const combine = { ...row, ...write.combine, status: 'completed', cardId, completedAt: now, updatedAt: now, currentStep: 7, promoApplied };
  const rebateRows: Array<typeof rebates.$inferSelect> = write.rebates.map((r) => ({
    ...r,
    userId,
    combineId,
    cardId,
    processedAt: r.status === 'processed' ? now : null,
    journalId: null,
    createdAt: now,
  }));
  const pricing = pricingFor(user, row.totalAmountCents, read.facts.promoSpotsLeft, now);
  return {
    combine: combineViewOf(combine, write.captured, pricing, { card: cardRow, rebates: rebateRows }),
    card: {
      id: cardId,
      type: plan.card.type,
      status: 'active',
      network: cardRow.network as 'visa' | 'mastercard',
      last4: cardRow.last4,
      maskedNumber: maskCardNumber(cardRow.last4),
      expMonth: cardRow.expMonth,
      expYear: cardRow.expYear,
      originalAmountCents: cardRow.originalAmountCents,
      remainingAmountCents: cardRow.remainingAmountCents,
      issuedAt: now.toISOString(),
      validUntil: plan.card.validUntil.toISOString(),
      promoApplied,
      promoId: cardRow.promoId,
    },
    quote: computeQuote(row, sources, user, pricing, input).api,
    promoApplied,
    boostEarned: plan.counters.earnedBoost,
    boostMessage: plan.counters.earnedBoost ? BOOST_EARNED_MESSAGE : null,
  };
}
