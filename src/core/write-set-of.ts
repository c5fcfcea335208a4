// Each planner's answer as a write set (write-set.ts): a projection, deciding nothing. Every
// figure is the plan's or, for a card's balance before a debit, its facts'; a card's balance after
// is what the server's conditional debit leaves (before minus the debit), except a cash-out's,
// which its plan states (`cardAfter`) and which is taken as stated so the properties can check it.
import type { CardDebit, Refusal } from './money-plan';
import type { CashoutFacts, CashoutPlan } from './plan-cashout';
import type { CompletionFacts, CompletionPlan } from './plan-completion';
import type { PurchaseFacts, PurchasePlan } from './plan-purchase';
import type { PendingRebatesPlan } from './plan-rebate-payouts';
import type { UpgradePlan } from './plan-subscription-payment';
import { acceptedWriteSet, refusedWriteSet, type DebitedCard, type MoneyJournal, type MoneyWriteSet, type OutsideEffect } from './write-set';

/** A debit as the server runs it: what it takes off the card's remaining it adds to its spent. */
function debited(debit: CardDebit, remainingBeforeCents: number): DebitedCard {
  return { debit, remainingBeforeCents, remainingAfterCents: remainingBeforeCents - debit.amountCents, spentAddedCents: debit.amountCents };
}

function remainingInFacts(cards: CompletionFacts['sourceCards'], cardId: string): number {
  const card = cards.find((c) => c.id === cardId);
  // A plan that debits a card it was not told about is a bug, not something to project.
  if (!card) throw new Error(`the plan debits card ${cardId}, which its facts do not hold`);
  return card.remainingAmountCents;
}

/**
 * The new card, the cards used as sources, the combine's journal, the BNPL rebates it owes, and the
 * captures. A rebate paid at once (a payout destination is registered) has its own journal and is
 * sent as a payout when it moves money, as plan-rebate-payouts.ts pays any rebate and as
 * completion-decision.ts queues it; a zero rebate is settled with neither.
 */
export function writeSetOfCompletion(facts: CompletionFacts, plan: CompletionPlan | Refusal): MoneyWriteSet {
  if (!plan.ok) return refusedWriteSet('completion', plan.code, plan.message);
  const paidAtOnce = plan.rebates.flatMap(({ sourceId, rebateAmountCents, paid }) => (paid ? [{ rebate: sourceId, amountCents: rebateAmountCents, paid }] : []));
  const rebateJournals: MoneyJournal[] = paidAtOnce.flatMap(({ paid }) => (paid.journal ? [paid.journal] : []));
  const rebatePayouts: OutsideEffect[] = paidAtOnce.flatMap(({ rebate, amountCents, paid }) =>
    paid.journal ? [{ kind: 'rebate_payout' as const, amountCents, rebate, method: paid.method, destination: paid.destination }] : [],
  );
  const { card } = plan;
  return acceptedWriteSet('completion', {
    cardDebits: plan.debits.map((debit) => debited(debit, remainingInFacts(facts.sourceCards, debit.cardId))),
    // A new card has spent nothing: it holds all it was funded with.
    cardsIssued: [{ cardId: card.id, originalCents: card.originalAmountCents, spentCents: 0, remainingCents: card.originalAmountCents }],
    journals: [plan.journal, ...rebateJournals],
    rebatesOwed: plan.rebates.map(({ sourceId, rebateAmountCents }) => ({ rebate: sourceId, amountCents: rebateAmountCents })),
    rebatesPaid: paidAtOnce.map(({ rebate, amountCents }) => ({ rebate, amountCents })),
    effects: [...plan.effects.map(({ amountCents, authorizationId }) => ({ kind: 'capture' as const, amountCents, authorizationId })), ...rebatePayouts],
  });
}

export function writeSetOfCashout(facts: CashoutFacts, plan: CashoutPlan | Refusal): MoneyWriteSet {
  if (!plan.ok) return refusedWriteSet('cashout', plan.code, plan.message);
  if (!facts.card) throw new Error('a cash-out planned without its card');
  const { cardAfter } = plan;
  const [payout] = plan.effects;
  return acceptedWriteSet('cashout', {
    cardDebits: [
      {
        debit: plan.debit,
        remainingBeforeCents: facts.card.remainingAmountCents,
        remainingAfterCents: cardAfter.remainingAmountCents,
        spentAddedCents: cardAfter.amountSpentCents - facts.card.amountSpentCents,
      },
    ],
    journals: [plan.journal],
    effects: [{ kind: 'payout', amountCents: payout.amountCents, method: payout.method, destination: payout.destination }],
  });
}

/** A demo purchase pays a merchant inside the demo: a debit and its journal, nothing sent outside. */
export function writeSetOfPurchase(facts: PurchaseFacts, plan: PurchasePlan): MoneyWriteSet {
  if (!plan.ok) return refusedWriteSet('purchase', 'declined', plan.decline);
  return acceptedWriteSet('purchase', { cardDebits: [debited(plan.debit, facts.card.remainingAmountCents)], journals: [plan.journal] });
}

/** Never refused: with no payout destination the plan pays nothing, and the rebates stay pending. */
export function writeSetOfRebatePayouts(plan: PendingRebatesPlan): MoneyWriteSet {
  return acceptedWriteSet('rebate_payouts', {
    journals: plan.paid.flatMap(({ payment }) => (payment.journal ? [payment.journal] : [])),
    rebatesPaid: plan.paid.map(({ rebateId, amountCents }) => ({ rebate: rebateId, amountCents })),
    effects: plan.effects.map(({ rebateId, amountCents, method, destination }) => ({ kind: 'rebate_payout' as const, amountCents, rebate: rebateId, method, destination })),
  });
}

/**
 * The payment card is an outside one, validated and forgotten
 * (docs/decisions/008-cashout-payouts-and-subscriptions.md): the journal takes from funding
 * sources, no PayWeave card is debited, and demo mode sends nothing to charge it.
 */
export function writeSetOfSubscriptionPayment(plan: UpgradePlan | Refusal): MoneyWriteSet {
  if (!plan.ok) return refusedWriteSet('subscription_payment', plan.code, plan.message);
  return acceptedWriteSet('subscription_payment', { journals: [plan.journal] });
}
