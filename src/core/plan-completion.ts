// "Create Virtual Card" decided (docs/rules.md#fee-examples, docs/rules.md#plans, docs/rules.md#cards, docs/rules.md#outside-effects): from the facts the server loaded inside its
// transaction (the combine and its sources, the cards used as sources, the user's plan, boosts and
// promo, this month's completed combines, the promo spots left, the figures the user reviewed),
// either a refusal with the message to show, or the plan the server writes: the debits of the cards
// used as sources, the new card, the balanced journal with the records the user sees, the BNPL
// rebates, the user's counters, and the holds to capture after the commit.
import { expiredDraftRefusal } from './draft-lifetime';
import { applyCombineCompletion, canUseBoost, type CombineCompletion } from './boosts';
import { cardExpiresAt, type VirtualCardType } from './cards';
import { CASHOUT_MESSAGES } from './cashout';
import { productFeePpm } from './fees';
import { checkMonthlyLimit } from './limits';
import { formatUsd } from './money';
import { assertJournalBalanced, compactLines, isCardValidAt, refuse, type CardDebit, type CardFacts, type JournalLine, type Refusal } from './money-plan';
import type { PlanId } from './plans';
import { rebatePayment, type RebatePayTo, type RebatePayment } from './plan-rebate-payouts';
import { isPromoActive, qualifiesForPromo } from './promo';
import { fundingCheck, quoteCombine, type CombineQuote, type QuoteInput, type QuoteSourceInput } from './quote';

export const QUOTE_CHANGED_MESSAGE = 'The fees changed since you reviewed them, so nothing was charged. Please review the new figures and confirm again.';
export const CREATION_FEE_SOURCE_MESSAGE = 'Choose one of the added sources, or the new card, to pay the card-creation fee.';
export const BNPL_CARD_MISSING_MESSAGE = 'Please enter the one-time card from your BNPL provider before creating the card.';
export const ALREADY_COMPLETED_MESSAGE = 'This combine is already completed.';
export const NOT_COMPLETABLE_MESSAGE = 'This combine can no longer be completed.';
export const SOURCE_CARD_CHANGED_MESSAGE = 'A card used as a source changed while this card was being created, so nothing was charged. Please review and confirm again.';

const DRAFT_STATUSES: readonly string[] = ['in_progress', 'incomplete'];

/**
 * docs/rules.md#review: a combine that is processing, completed or failed is never re-quoted or edited.
 * Null for a draft (in progress or saved for later).
 */
export function notADraftRefusal(status: string, action: 'quote' | 'complete'): Refusal | null {
  if (DRAFT_STATUSES.includes(status)) return null;
  if (action === 'complete') {
    return status === 'completed' ? refuse(409, 'already_completed', ALREADY_COMPLETED_MESSAGE) : refuse(409, 'not_a_draft', NOT_COMPLETABLE_MESSAGE);
  }
  const why =
    status === 'completed' ? 'is already completed' : status === 'processing' ? 'is being processed' : status === 'failed' ? 'has failed' : `is ${status}`;
  return refuse(409, 'not_a_draft', `This combine ${why}, so its fees are no longer quoted. Start a new combine to review new figures.`);
}

/**
 * docs/rules.md#card-expiry: a card used as a source must be active, unfrozen and unexpired, and hold what it
 * is charged, when it is added and again at the moment of completion. `label` names the card in
 * the message ("This card" in the add form, "The card •••• 1234 used as a source" at completion).
 */
export function sourceCardRefusal(card: CardFacts | undefined, chargedCents: number, now: Date, label = 'This card'): Refusal | null {
  if (!card) return refuse(409, 'source_unavailable', `${label} is no longer one of your cards.`);
  if (card.frozen) return refuse(409, 'card_frozen', `${label} is frozen. Unfreeze it to use it as a source.`);
  if (card.status === 'expired' || (card.status === 'active' && !isCardValidAt(card, now))) {
    return refuse(409, 'source_unavailable', `${label} has expired, so it can no longer be used as a source.`);
  }
  if (card.status !== 'active' || card.remainingAmountCents <= 0) {
    return refuse(409, 'source_unavailable', label === 'This card' ? CASHOUT_MESSAGES.noBalanceForSource : `${label} has no remaining balance to use as a source.`);
  }
  if (card.remainingAmountCents < chargedCents) {
    return refuse(409, 'source_unavailable', `${label} holds ${formatUsd(card.remainingAmountCents)}, less than the ${formatUsd(chargedCents)} it is charged.`);
  }
  return null;
}

export type CompletionSource = {
  id: string;
  /** credit, debit, prepaid, bnpl or internal (a PayWeave card). */
  type: string;
  provider: string;
  chargeCents: number;
  sourceCardId: string | null;
  authorizationId: string | null;
  bnplTransactionId: string | null;
  bnplCardToken: string | null;
};

export type CompletionFacts = {
  now: Date;
  combine: { id: string; status: string; totalAmountCents: number; taxBufferCents: number; createdAt: Date };
  /** In their order on the combine. */
  sources: readonly CompletionSource[];
  /** The cards used as sources, as read inside the completion's transaction. */
  sourceCards: readonly CardFacts[];
  user: { plan: PlanId; boostsAvailable: number; boostsUsed: number; combineTotal: number; promoEnd: Date | null; hasPromo: boolean };
  completedThisMonth: number;
  /** Launch-promo spots left (0 when the counter cannot matter). */
  promoSpotsLeft: number;
  choices: { useBoost: boolean; creationFeeSourceIdx: number; cardType: VirtualCardType };
  /** The figures the user reviewed: any difference charges nothing (409 quote_changed). */
  expected: { cardAmountCents: number; totalChargedCents: number; productFeeCents: number };
  /** The card the processor issued before the transaction (docs/rules.md#outside-effects). */
  newCard: { id: string; last4: string };
  /**
   * Where the user's BNPL rebates are paid: their preferred payout method with the destination the
   * payout provider registered for it (decision 172); null when there is none yet, and the
   * rebates stay pending until there is (docs/rules.md#bnpl).
   */
  rebatePayout: RebatePayTo | null;
};

export type CompletionRecord = {
  type: 'funding' | 'transfer_out';
  cardId: string;
  amountCents: number;
  feeCents: number;
  netAmountCents: number;
  merchant: string | null;
};

export type CompletionPlan = {
  ok: true;
  quote: CombineQuote;
  boostUsed: boolean;
  /** The promo is running for this user, or this combine claims a spot. */
  promoApplies: boolean;
  /**
   * The promo halved a product fee of this combine (decision 167): it applies, and without it the
   * rate would not be zero anyway (no boost waived the fee, the plan has one).
   */
  promoHalvedFee: boolean;
  /** Completing claims one of the launch-promo spots (a conditional increment the server runs first). */
  claimsPromoSpot: boolean;
  /** The cards used as sources, each debited once for everything it is charged. */
  debits: CardDebit[];
  card: { id: string; type: VirtualCardType; originalAmountCents: number; validUntil: Date };
  journal: { kind: 'combine_completion'; memo: string; lines: JournalLine[] };
  records: CompletionRecord[];
  rebates: CompletionRebate[];
  /** The holds captured after the commit, from the outbox. */
  effects: Array<{ kind: 'capture'; authorizationId: string; amountCents: number }>;
  counters: CombineCompletion;
};

/**
 * A BNPL rebate the completion owes. With a payout destination it is paid at once (`paid`), as a
 * pending rebate is paid later (plan-rebate-payouts.ts): a journal from rebates payable to payouts
 * and a payout to send after the commit; a zero rebate is settled without money moving.
 */
export type CompletionRebate = {
  sourceId: string;
  transactionId: string | null;
  bnplFeeMaxCents: number;
  bnplFeeActualCents: number;
  rebateAmountCents: number;
  paid: RebatePayment | null;
};

function rebateOwed(source: CompletionSource, q: CombineQuote['sources'][number], payTo: CompletionFacts['rebatePayout']): CompletionRebate {
  const amountCents = q.rebateCents;
  const paid = payTo ? rebatePayment(amountCents, payTo) : null;
  return { sourceId: source.id, transactionId: source.bnplTransactionId, bnplFeeMaxCents: q.bnplFeeMaxCents, bnplFeeActualCents: q.bnplFeeActualCents, rebateAmountCents: amountCents, paid };
}

export function sourceKindOf(type: string): QuoteSourceInput['kind'] {
  if (type === 'bnpl') return 'bnpl';
  if (type === 'internal') return 'internal';
  return 'card';
}

/** The quote's input from the facts: the same figures the review step showed for the same facts. */
export function completionQuoteInput(facts: Pick<CompletionFacts, 'combine' | 'sources' | 'user' | 'promoSpotsLeft' | 'now'>, boostUsed: boolean, creationFeeSourceIndex: number): QuoteInput & { promoClaim: boolean } {
  const { combine, user } = facts;
  const promoRunning = isPromoActive({ promoEnd: user.promoEnd, now: facts.now });
  const promoClaim = !promoRunning && qualifiesForPromo({ totalCents: combine.totalAmountCents, hasPromo: user.hasPromo, remainingCount: facts.promoSpotsLeft });
  return {
    plan: user.plan,
    promoActive: promoRunning || promoClaim,
    promoClaim,
    boostUsed,
    totalCents: combine.totalAmountCents,
    taxBufferCents: Math.min(combine.taxBufferCents, combine.totalAmountCents),
    sources: facts.sources.map((s) => ({ kind: sourceKindOf(s.type), provider: s.provider, chargeCents: s.chargeCents })),
    creationFeeSourceIndex,
  };
}

export function planCompletion(facts: CompletionFacts): CompletionPlan | Refusal {
  const { now, combine, sources, user, choices } = facts;
  const statusRefusal = notADraftRefusal(combine.status, 'complete') ?? expiredDraftRefusal(combine.createdAt, now);
  if (statusRefusal) return statusRefusal;
  const limit = checkMonthlyLimit({ plan: user.plan, completedThisMonth: facts.completedThisMonth });
  if (!limit.ok) return refuse(403, 'limit_reached', limit.message);
  if (sources.some((s) => s.type === 'bnpl' && !s.bnplCardToken)) return refuse(400, 'validation_error', BNPL_CARD_MISSING_MESSAGE);
  const boost = canUseBoost({ boostsAvailable: user.boostsAvailable, boostsUsed: user.boostsUsed });
  if (choices.useBoost && !boost.ok) return refuse(409, 'boost_unavailable', boost.message);
  if (!Number.isInteger(choices.creationFeeSourceIdx) || choices.creationFeeSourceIdx < -1 || choices.creationFeeSourceIdx >= sources.length) {
    return refuse(400, 'validation_error', CREATION_FEE_SOURCE_MESSAGE);
  }

  const { promoClaim, ...quoteInput } = completionQuoteInput(facts, choices.useBoost, choices.creationFeeSourceIdx);
  const quote = quoteCombine(quoteInput);
  // Figures first: a user who reviewed other numbers must see the new ones (which may also say
  // the sources no longer cover the total).
  const { expected } = facts;
  if (quote.cardAmountCents !== expected.cardAmountCents || quote.totalChargedCents !== expected.totalChargedCents || quote.productFeeCents !== expected.productFeeCents) {
    return refuse(409, 'quote_changed', QUOTE_CHANGED_MESSAGE);
  }
  const funding = fundingCheck(quote);
  if (!funding.ok) return refuse(409, 'underfunded', funding.message);

  // The cards used as sources, as they are now (docs/rules.md#cards), each charged once for all its lines.
  const chargedByCard = new Map<string, number>();
  for (const [index, source] of sources.entries()) {
    if (source.type !== 'internal') continue;
    const cardId = source.sourceCardId ?? '';
    chargedByCard.set(cardId, (chargedByCard.get(cardId) ?? 0) + quote.sources[index]!.chargedCents);
  }
  for (const [cardId, chargedCents] of chargedByCard) {
    const card = facts.sourceCards.find((c) => c.id === cardId);
    const refusal = sourceCardRefusal(card, chargedCents, now, card ? `The card •••• ${card.last4} used as a source` : 'A card used as a source');
    if (refusal) return refusal;
  }
  const debits: CardDebit[] = [...chargedByCard].map(([cardId, amountCents]) => ({ cardId, amountCents, statusAtZero: null, allowedStatuses: ['active'], validAt: now }));

  const newCardId = facts.newCard.id;
  const lines: JournalLine[] = [];
  const records: CompletionRecord[] = [
    {
      type: 'funding',
      cardId: newCardId,
      amountCents: quote.cardAmountCents,
      feeCents: quote.productFeeCents + quote.processorFeeCents + quote.bnplFeeActualCents + quote.creationFeeCents,
      netAmountCents: quote.cardAmountCents,
      merchant: null,
    },
  ];
  const rebates: CompletionPlan['rebates'] = [];
  const effects: CompletionPlan['effects'] = [];
  for (const [index, source] of sources.entries()) {
    const q = quote.sources[index]!;
    if (source.type === 'internal') {
      const cardId = source.sourceCardId ?? '';
      lines.push({ account: { card: cardId }, amountCents: -q.chargedCents });
      records.push({ type: 'transfer_out', cardId, amountCents: q.chargedCents, feeCents: q.productFeeCents + q.creationFeeCents, netAmountCents: q.netCents, merchant: `To card •••• ${facts.newCard.last4}` });
      continue;
    }
    lines.push({ account: { system: 'fundingSources' }, amountCents: -q.chargedCents });
    if (source.authorizationId) effects.push({ kind: 'capture', authorizationId: source.authorizationId, amountCents: q.chargeCents + q.creationFeeCents });
    if (source.bnplTransactionId) effects.push({ kind: 'capture', authorizationId: source.bnplTransactionId, amountCents: q.oneTimeCardChargeCents ?? q.chargeCents });
    if (source.type === 'bnpl') rebates.push(rebateOwed(source, q, facts.rebatePayout));
  }
  lines.push(
    { account: { card: newCardId }, amountCents: quote.cardAmountCents },
    { account: { system: 'processorFees' }, amountCents: quote.processorFeeCents },
    { account: { system: 'productFeeRevenue' }, amountCents: quote.productFeeCents },
    { account: { system: 'bnplProviderFees' }, amountCents: quote.bnplFeeActualCents },
    { account: { system: 'rebatesPayable' }, amountCents: quote.rebateCents },
    { account: { system: 'creationFeeRevenue' }, amountCents: quote.creationFeeCents },
  );
  const journalLines = compactLines(lines);
  assertJournalBalanced(journalLines);

  const boostUsed = choices.useBoost && boost.ok;
  return {
    ok: true,
    quote,
    boostUsed,
    promoApplies: quoteInput.promoActive,
    promoHalvedFee: quoteInput.promoActive && productFeePpm({ plan: user.plan, promoActive: false, boostUsed }) > 0,
    claimsPromoSpot: promoClaim,
    debits,
    card: { id: newCardId, type: choices.cardType, originalAmountCents: quote.cardAmountCents, validUntil: cardExpiresAt(choices.cardType, now) },
    journal: { kind: 'combine_completion', memo: `combine ${combine.id}`, lines: journalLines },
    records,
    rebates,
    effects,
    counters: applyCombineCompletion({ combineTotal: user.combineTotal, boostsAvailable: user.boostsAvailable, boostsUsed: user.boostsUsed, usedBoost: boostUsed }),
  };
}
