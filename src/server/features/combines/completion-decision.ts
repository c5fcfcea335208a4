// The completion decided, in the server's terms: the core's plan (core/plan-completion.ts) and the
// rows, effects and answer it turns into, for the completion's writer (completion-write.ts). Pure:
// nothing here reads or writes.
import { planCompletion, QUOTE_CHANGED_MESSAGE, SOURCE_CARD_CHANGED_MESSAGE } from '../../../core/plan-completion';
import { PROMO, promoEndFrom } from '../../../core/promo';
import { writeSetOfCompletion } from '../../../core/write-set-of';
import type { CompleteCombineResponse } from '../../../contracts/combines';
import type { IssuedCard } from '../../adapters/card-processor';
import { effectReference, rebatePayoutEffect, type MoneyEffect } from '../../effects/money-effects';
import { postingsOf } from '../../ledger/accounts';
import { cardWithAccountValues, type NewCard } from '../../ledger/card-accounts';
import type { JournalTransaction } from '../../ledger/post-journal';
import { encryptCardSecret } from '../../lib/card-crypto';
import { conflict, refusalError } from '../../lib/errors';
import type { Decision } from '../../money/run-money-operation';
import type { SourceRow } from './combine-view';
import { completionAnswer } from './completion-answer';
import type { CompleteInput, LoadedCompletion } from './completion-facts';
import type { CompletionWrite, NewRebate } from './completion-write';
import { pricingFor } from './pricing';
import { computeQuote } from './quote-service';

type Context = { userId: string; input: CompleteInput; issued: IssuedCard; cardDataKey: Buffer };

/** The review step's figures for these facts, sent with a refusal that is about them. */
function quoteViewFor({ loaded, facts }: LoadedCompletion, input: CompleteInput, promoSpotsLeft = facts.promoSpotsLeft): CompleteCombineResponse['quote'] {
  const { row, sources, user } = loaded;
  return computeQuote(row, sources, user, pricingFor(user, row.totalAmountCents, promoSpotsLeft, facts.now), input).api;
}

export function decideCompletion(read: LoadedCompletion, context: Context): Decision<CompletionWrite> {
  const { loaded, facts } = read;
  const { userId, input, issued } = context;
  const plan = planCompletion(facts);
  if (!plan.ok) {
    const figures = plan.code === 'quote_changed' || plan.code === 'underfunded';
    return { refusal: refusalError(plan, figures ? quoteViewFor(read, input) : undefined) };
  }
  const { row, sources } = loaded;
  const now = facts.now;
  const combineId = row.id;
  const cardId = plan.card.id;
  const flags = { simulated: row.simulated, testSource: row.testSource, environment: row.environment };
  const promoApplied = plan.claimsPromoSpot;
  const newCard: NewCard = {
    id: cardId,
    userId,
    combineId,
    type: plan.card.type,
    status: 'active',
    frozen: false,
    issuedAt: now,
    validUntil: plan.card.validUntil,
    expMonth: issued.expMonth,
    expYear: issued.expYear,
    network: issued.network,
    last4: issued.number.slice(-4),
    numberEnc: encryptCardSecret(context.cardDataKey, issued.number, cardId),
    cvvEnc: encryptCardSecret(context.cardDataKey, issued.cvv, cardId),
    originalAmountCents: plan.card.originalAmountCents,
    amountSpentCents: 0,
    remainingAmountCents: plan.card.originalAmountCents,
    promoApplied,
    promoId: promoApplied ? PROMO.id : null,
    providerRef: issued.providerRef,
    ...flags,
  };
  // What the user sees: the new card's funding, and a transfer out of each card used as a source.
  const records: JournalTransaction[] = plan.records.map((r) => ({ ...r, id: crypto.randomUUID(), userId, status: 'success', payoutMethod: null, combineId, createdAt: now, ...flags }));
  const newRebates: NewRebate[] = plan.rebates.map(({ paid, ...r }) => ({ ...r, id: crypto.randomUUID(), status: paid ? 'processed' : 'pending', payoutMethod: paid?.method ?? null }));
  const effects: MoneyEffect[] = plan.effects.map((e) => ({
    kind: 'capture',
    reference: effectReference.capture(e.authorizationId),
    userId,
    payload: { authorizationId: e.authorizationId, amountCents: e.amountCents, combineId },
  }));
  const rebateJournals: CompletionWrite['rebateJournals'] = [];
  plan.rebates.forEach(({ paid, rebateAmountCents }, index) => {
    const rebateId = newRebates[index]!.id;
    if (!paid?.journal) return;
    rebateJournals.push({ rebateId, journal: { kind: 'rebate_payout', userId, referenceId: rebateId, memo: paid.journal.memo, entries: postingsOf(paid.journal.lines) } });
    effects.push(rebatePayoutEffect(userId, rebateId, { method: paid.method, amountCents: rebateAmountCents, destination: paid.destination }));
  });
  const captured: SourceRow[] = sources.map((source, index) => {
    const q = plan.quote.sources[index]!;
    const { processorFeeCents, productFeeCents, netCents, bnplFeeMaxCents, bnplFeeActualCents, rebateCents, creationFeeCents } = q;
    return { ...source, status: 'captured', processorFeeCents, productFeeCents, netCents, bnplFeeMaxCents, bnplFeeActualCents, rebateCents, creationFeeCents };
  });
  const completedFields = {
    useBoost: plan.boostUsed,
    creationFeeSourceIdx: input.creationFeeSourceIdx,
    cardType: plan.card.type,
    promoDiscount: plan.promoHalvedFee,
    bnplFeeMaxCents: plan.quote.bnplFeeMaxCents,
    bnplFeeActualCents: plan.quote.bnplFeeActualCents,
    rebateId: newRebates[0]?.id ?? null,
  };
  const card = cardWithAccountValues(newCard, newCard.remainingAmountCents);
  const write: CompletionWrite = {
    // The last promo spot went to someone else between review and now: the fees differ
    // (docs/rules.md#promo-100th-spot), charge nothing and show the figures without the promo.
    promoSpot: plan.claimsPromoSpot ? { refusal: conflict(QUOTE_CHANGED_MESSAGE, 'quote_changed', quoteViewFor(read, input, 0)) } : null,
    debits: plan.debits.map((debit) => ({ ...debit, userId })),
    sourceRefusal: conflict(SOURCE_CARD_CHANGED_MESSAGE, 'source_unavailable'),
    rebateJournals,
    userId,
    combineId,
    now,
    card,
    journal: { kind: plan.journal.kind, userId, referenceId: combineId, memo: plan.journal.memo, entries: postingsOf(plan.journal.lines), transactions: records },
    rebates: newRebates,
    counters: { combineTotal: plan.counters.combineTotal, boostsAvailable: plan.counters.boostsAvailable, boostsUsed: plan.counters.boostsUsed },
    promoApplied,
    promoEnd: promoEndFrom(now),
    captured,
    combine: completedFields,
  };

  const body = completionAnswer({ read, plan, input, write, cardRow: card.row });
  return { write, answer: { status: 201, body }, effects, writeSet: writeSetOfCompletion(facts, plan) };
}
