// "Create Virtual Card": the one transaction in which a combine becomes money on a card.
// Everything is re-checked here from stored data; the client only says which choices it made
// and which figures it saw (if they differ, nothing is charged: 409 quote_changed).
import { randomInt } from 'node:crypto';
import { and, asc, count, eq, gte, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { alias } from 'drizzle-orm/pg-core';
import { BOOST_EARNED_MESSAGE } from '../../../core/boosts';
import { cardExpiresAt, printedExpiry, generateCardNumber, maskCardNumber } from '../../../core/cards';
import { monthStartUtc } from '../../../core/limits';
import type { CardFacts } from '../../../core/money-plan';
import { notADraftRefusal, planCompletion, QUOTE_CHANGED_MESSAGE, type CompletionFacts, type CompletionPlan } from '../../../core/plan-completion';
import { PLANS, type PlanId } from '../../../core/plans';
import { PROMO, promoEndFrom } from '../../../core/promo';
import type { CompleteCombineResponse } from '../../../contracts/combines';
import type { IssuedCard } from '../../adapters/card-processor';
import { effectReference, type MoneyEffect } from '../../effects/money-effects';
import type { DbOrTx, Tx } from '../../db/client';
import { namedStatement, placeholderValues } from '../../db/named-statement';
import { cards, combineSources, combines, systemPromos, users } from '../../db/schema';
import { postingsOf } from '../../ledger/accounts';
import { cardWithAccountValues, debitCard, type CardRow, type NewCard } from '../../ledger/card-accounts';
import type { JournalTransaction } from '../../ledger/post-journal';
import { encryptCardSecret } from '../../lib/card-crypto';
import { conflict, liveModeNotImplemented, notFound, refusalError } from '../../lib/errors';
import { claimClause, claimedColumn, requestFingerprint, withIdempotency, type ClaimInFirstStatement } from '../../lib/idempotency';
import { buildCombineView, COMBINE_NOT_FOUND, type CombineRow, type SourceRow } from './combine-view';
import { PROMO_COUNTER_ID } from '../system';
import { writeCompletion, type NewRebate } from './completion-write';
import { pricingFor, remainingPromoSpots, type Pricing, type UserRow } from './pricing';
import { computeQuote, type QuoteChoices } from './quote-service';

export const CREATE_CARD_FAILED = 'Failed to create virtual card';
export { QUOTE_CHANGED_MESSAGE };

export type CompleteInput = QuoteChoices & { expected: { cardAmountCents: number; totalChargedCents: number; productFeeCents: number } };

export async function completeCombine(
  app: FastifyInstance,
  userId: string,
  combineId: string,
  input: CompleteInput,
  idempotencyKey: string,
): Promise<{ status: number; body: CompleteCombineResponse }> {
  if (!app.config.demoMode) throw liveModeNotImplemented();
  // Spec: creation takes about 2 s in demo mode; the wait holds no locks.
  await app.adapters.delay('cardCreation');
  const fingerprint = requestFingerprint({ method: 'POST', route: `/api/combines/${combineId}/complete`, body: input });
  // The new card is issued before the transaction (DECISIONS §7), with a reference derived from the
  // Idempotency-Key: a retry gets the same card from the processor. Issuing moves no money; a
  // completion refused below leaves that card unfunded and unused.
  const issued = await issueCard(app, userId, idempotencyKey, input.cardType);
  // The captures the committed attempt wrote (claimed by it: decision 140).
  const captures: CompletionEffects = { written: [], hookEffects: 0 };
  const result = await withIdempotency(
    app.db,
    { userId, key: idempotencyKey, fingerprint, now: app.now() },
    async (tx, claim) => {
      captures.written = [];
      captures.hookEffects = 0;
      return { status: 201, body: await completeInTransaction(app, tx, userId, combineId, input, claim, issued, captures) };
    },
    { claimInFirstStatement: true },
  );
  // The captures go out after the commit, from this process at once; a replay wrote nothing new.
  // A hook's effects (a rebate payout) were written unclaimed: the drain takes them.
  if (!result.replayed) {
    app.effects.carryOut(captures.written);
    if (captures.hookEffects > 0) app.effects.kick();
  }
  return { status: result.status, body: result.body as CompleteCombineResponse };
}

/** What the committed attempt wrote for the drain: its captures (claimed) and how many effects its hooks wrote (unclaimed). */
type CompletionEffects = { written: MoneyEffect[]; hookEffects: number };

function issueCard(app: FastifyInstance, userId: string, idempotencyKey: string, cardType: CompleteInput['cardType']): Promise<IssuedCard> {
  const network = randomInt(2) === 0 ? 'visa' : 'mastercard';
  // The printed MM/YY is the validity end, so the card and the product tell one date (decision 051).
  const printed = printedExpiry(cardExpiresAt(cardType, app.now()));
  return app.adapters.cardProcessor.issueCard({
    reference: `issue:${userId}:${idempotencyKey}`,
    network,
    expMonth: Number(printed.expiryMonth),
    expYear: 2000 + Number(printed.expiryYear),
    generateNumber: (randomDigit) => generateCardNumber(network, randomDigit),
  });
}

function captureEffect(userId: string, combineId: string, authorizationId: string, amountCents: number): MoneyEffect {
  return { kind: 'capture', reference: effectReference.capture(authorizationId), userId, payload: { authorizationId, amountCents, combineId } };
}

// The user and the combine, both locked, the combine's sources and the cards used as sources:
// one statement (which also claims the Idempotency-Key, a WITH clause from lib/idempotency.ts),
// one row per source (the user's and the combine's columns repeated; a draft has a handful of
// sources). Both locks come from one statement, so there is no order between them to get wrong; no
// other path locks a combine and then waits for its user (draft edits lock the combine only).
// NO KEY UPDATE, not UPDATE: inserting rows that reference the user (idempotency keys, cards) takes
// KEY SHARE on it, which conflicts with FOR UPDATE and deadlocks two concurrent requests.
// The source cards are not locked: their conditional debits below decide under concurrency.
const sourceCards = alias(cards, 'source_card');
const loadForCompletionStatement = namedStatement('load_for_completion', (db) =>
  db
    .with(claimClause(db))
    .select({
      users,
      combines,
      combine_sources: combineSources,
      source_card: {
        id: sourceCards.id,
        status: sourceCards.status,
        frozen: sourceCards.frozen,
        validUntil: sourceCards.validUntil,
        remainingAmountCents: sourceCards.remainingAmountCents,
        last4: sourceCards.last4,
      },
      claimed: claimedColumn(),
    })
    .from(users)
    .innerJoin(combines, eq(combines.userId, users.id))
    .leftJoin(combineSources, eq(combineSources.combineId, combines.id))
    .leftJoin(sourceCards, and(eq(sourceCards.id, combineSources.sourceCardId), eq(sourceCards.userId, users.id)))
    .where(and(eq(users.id, sql.placeholder('userId')), eq(combines.id, sql.placeholder('combineId'))))
    .orderBy(asc(combineSources.position))
    .for('no key update', { of: [users, combines] }),
);

type CompletionRows = { user: UserRow; row: CombineRow; sources: SourceRow[]; sourceCards: CardFacts[] };

async function loadForCompletion(tx: Tx, userId: string, combineId: string, claim: ClaimInFirstStatement): Promise<CompletionRows> {
  const joined = await loadForCompletionStatement(tx, placeholderValues({ claim: claim.values, completion: { userId, combineId } }));
  const first = joined[0];
  // The signed-in user exists (their session does): no row means no such combine of theirs.
  if (!first) throw notFound(COMBINE_NOT_FOUND);
  claim.settle(first.claimed);
  return {
    user: first.users,
    row: first.combines,
    sources: joined.flatMap((r) => (r.combine_sources ? [r.combine_sources] : [])),
    sourceCards: joined.flatMap((r) => (r.source_card ? [r.source_card] : [])),
  };
}

/** Completed combines this month, read only for a plan that has a monthly limit. */
async function completedThisMonth(tx: Tx, userId: string, plan: PlanId, now: Date): Promise<number> {
  if (PLANS[plan].monthlyCombineLimit === null) return 0;
  const [counted] = await tx
    .select({ completed: count() })
    .from(combines)
    .where(and(eq(combines.userId, userId), eq(combines.status, 'completed'), gte(combines.completedAt, monthStartUtc(now))));
  return Number(counted?.completed ?? 0);
}

/** The launch promo: a conditional increment that can never pass 100 (and a CHECK behind it). */
async function claimPromoSpot(tx: Tx): Promise<boolean> {
  const claimed = await tx
    .update(systemPromos)
    .set({ first100PromoClaimed: sql`${systemPromos.first100PromoClaimed} + 1` })
    .where(and(eq(systemPromos.id, PROMO_COUNTER_ID), sql`${systemPromos.first100PromoClaimed} < ${systemPromos.limitCount}`))
    .returning({ claimed: systemPromos.first100PromoClaimed });
  return claimed.length > 0;
}

/**
 * The completion: load the facts, ask the core (core/plan-completion.ts), carry out its plan in
 * this transaction (promo spot, debits of the cards used as sources, one write of everything
 * else), and leave the captures in the outbox for after the commit (DECISIONS §7).
 */
async function completeInTransaction(
  app: FastifyInstance,
  tx: Tx,
  userId: string,
  combineId: string,
  input: CompleteInput,
  claim: ClaimInFirstStatement,
  issued: IssuedCard,
  captures: CompletionEffects,
): Promise<CompleteCombineResponse> {
  const now = app.now();
  // Lock order everywhere: the user and the combine (one statement), then the promo counter, then cards.
  const loaded = await loadForCompletion(tx, userId, combineId, claim);
  const { user, row, sources } = loaded;
  const plan = user.subscription as PlanId;
  const facts: CompletionFacts = {
    now,
    combine: { id: row.id, status: row.status, totalAmountCents: row.totalAmountCents, taxBufferCents: row.taxBufferCents },
    sources,
    sourceCards: loaded.sourceCards,
    user: { plan, boostsAvailable: user.boostsAvailable, boostsUsed: user.boostsUsed, combineTotal: user.combineTotal, promoEnd: user.promoEnd, hasPromo: user.promo50offFirstYear },
    // Read only when they can matter: a draft that is no draft is refused before either counts.
    completedThisMonth: notADraftRefusal(row.status, 'complete') ? 0 : await completedThisMonth(tx, userId, plan, now),
    promoSpotsLeft: await remainingPromoSpots(tx, user, row.totalAmountCents, now),
    choices: { useBoost: input.useBoost, creationFeeSourceIdx: input.creationFeeSourceIdx, cardType: input.cardType },
    expected: input.expected,
    newCard: { id: crypto.randomUUID(), last4: issued.number.slice(-4) },
  };
  const decided = planCompletion(facts);
  if (!decided.ok) {
    const figures = decided.code === 'quote_changed' || decided.code === 'underfunded';
    throw refusalError(decided, figures ? quoteViewFor(row, sources, user, facts, input) : undefined);
  }
  // The last promo spot went to someone else between review and now: the fees differ (DECISIONS
  // §3), charge nothing and show the figures without the promo.
  if (decided.claimsPromoSpot && !(await claimPromoSpot(tx))) {
    throw conflict(QUOTE_CHANGED_MESSAGE, 'quote_changed', quoteViewFor(row, sources, user, { ...facts, promoSpotsLeft: 0 }, input));
  }

  // The cards used as sources: each debit is conditional again (active, unfrozen, valid now, enough
  // balance), so a card changed since the read above refuses here and the whole completion rolls back.
  for (const debit of decided.debits) {
    const moved = await debitCard(tx, { ...debit, userId });
    if (!moved) throw conflict('A card used as a source changed while this card was being created, so nothing was charged. Please review and confirm again.', 'source_unavailable');
  }
  return writePlan(app, tx, { userId, row, sources, user, issued, plan: decided, facts, input, claim, captures });
}

/** The review step's figures for these facts, sent with a refusal that is about them. */
function quoteViewFor(row: CombineRow, sources: SourceRow[], user: UserRow, facts: Pick<CompletionFacts, 'now' | 'promoSpotsLeft'>, input: CompleteInput): CompleteCombineResponse['quote'] {
  return computeQuote(row, sources, user, pricingFor(user, row.totalAmountCents, facts.promoSpotsLeft, facts.now), input).api;
}

type WriteContext = {
  userId: string;
  row: CombineRow;
  sources: SourceRow[];
  user: UserRow;
  issued: IssuedCard;
  plan: CompletionPlan;
  facts: CompletionFacts;
  input: CompleteInput;
  claim: ClaimInFirstStatement;
  captures: CompletionEffects;
};

/** The plan's rows, written by one statement (completion-write.ts), and the answer built from them. */
async function writePlan(app: FastifyInstance, tx: Tx, context: WriteContext): Promise<CompleteCombineResponse> {
  const { userId, row, sources, user, issued, plan, facts, input, claim, captures } = context;
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
    numberEnc: encryptCardSecret(app.config.cardDataKey, issued.number, cardId),
    cvvEnc: encryptCardSecret(app.config.cardDataKey, issued.cvv, cardId),
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
  const newRebates: NewRebate[] = plan.rebates.map((r) => ({ ...r, id: crypto.randomUUID() }));
  const capturedSources: SourceRow[] = sources.map((source, index) => {
    const q = plan.quote.sources[index]!;
    return {
      ...source,
      status: 'captured',
      processorFeeCents: q.processorFeeCents,
      productFeeCents: q.productFeeCents,
      netCents: q.netCents,
      bnplFeeMaxCents: q.bnplFeeMaxCents,
      bnplFeeActualCents: q.bnplFeeActualCents,
      rebateCents: q.rebateCents,
      creationFeeCents: q.creationFeeCents,
    };
  });
  const pricing = pricingFor(user, row.totalAmountCents, facts.promoSpotsLeft, now);
  const quoteView = computeQuote(row, sources, user, pricing, input).api;
  const completedFields = {
    useBoost: plan.boostUsed,
    creationFeeSourceIdx: input.creationFeeSourceIdx,
    cardType: plan.card.type,
    bnplFeeMaxCents: plan.quote.bnplFeeMaxCents,
    bnplFeeActualCents: plan.quote.bnplFeeActualCents,
    rebateId: newRebates[0]?.id ?? null,
  };
  // The rows as the write below leaves them (the user and the combine are locked, so nothing else
  // changes them): the answer is built from these, not read back.
  const card = cardWithAccountValues(newCard, newCard.remainingAmountCents);
  const written: WrittenRows = {
    card: card.row,
    combine: { ...row, ...completedFields, status: 'completed', cardId, completedAt: now, updatedAt: now, currentStep: 7, promoApplied },
    sources: capturedSources,
    pricing,
    quoteView,
    promoApplied,
    boostEarned: plan.counters.earnedBoost,
  };

  // Without rebates the answer is final before the write, which then stores it with the
  // Idempotency-Key (one round trip less). A BNPL rebate may be paid by a hook, after the write:
  // that answer is built, and then stored, once the hooks have run.
  const finalAnswer = newRebates.length === 0 ? await completionAnswer(tx, written, []) : null;
  const effects = plan.effects.map((e) => captureEffect(userId, combineId, e.authorizationId, e.amountCents));
  const stored = await writeCompletion(tx, {
    userId,
    combineId,
    now,
    card,
    journal: { kind: plan.journal.kind, userId, referenceId: combineId, memo: plan.journal.memo, entries: postingsOf(plan.journal.lines), transactions: records },
    rebates: newRebates,
    counters: { combineTotal: plan.counters.combineTotal, boostsAvailable: plan.counters.boostsAvailable, boostsUsed: plan.counters.boostsUsed },
    promoApplied,
    promoEnd: promoEndFrom(now),
    captured: capturedSources,
    effects,
    effectLeaseSeconds: app.effects.leaseSeconds,
    combine: completedFields,
    store: claim.storeValues(finalAnswer && { status: 201, body: finalAnswer }),
  });
  claim.settleStore(stored);
  captures.written = effects;

  // The user row is locked since the start of this transaction: its payout choice is current.
  captures.hookEffects = await afterCompletionHooks.run(tx, { userId, now, preferredPayout: user.preferredPayout });
  return finalAnswer ?? (await completionAnswer(tx, written));
}

type WrittenRows = {
  card: CardRow;
  combine: CombineRow;
  sources: SourceRow[];
  pricing: Pricing;
  quoteView: CompleteCombineResponse['quote'];
  promoApplied: boolean;
  boostEarned: boolean;
};

/** The completion's answer from the rows it wrote; its rebates are given ([]) or read (after the hooks may have paid them). */
async function completionAnswer(db: DbOrTx, written: WrittenRows, rebates?: []): Promise<CompleteCombineResponse> {
  const { card, promoApplied } = written;
  return {
    combine: await buildCombineView(db, written.combine, written.sources, written.pricing, { card, ...(rebates ? { rebates } : {}) }),
    card: {
      id: card.id,
      type: card.type as 'general' | 'single-use',
      status: card.status,
      network: card.network as 'visa' | 'mastercard',
      last4: card.last4,
      maskedNumber: maskCardNumber(card.last4),
      expMonth: card.expMonth,
      expYear: card.expYear,
      originalAmountCents: card.originalAmountCents,
      remainingAmountCents: card.remainingAmountCents,
      issuedAt: card.issuedAt.toISOString(),
      validUntil: card.validUntil.toISOString(),
      promoApplied,
      promoId: card.promoId,
    },
    quote: written.quoteView,
    promoApplied,
    boostEarned: written.boostEarned,
    boostMessage: written.boostEarned ? BOOST_EARNED_MESSAGE : null,
  };
}

// Other features (payouts: paying pending BNPL rebates) hook into the completion transaction
// without this file importing them.
export type CompletionContext = { userId: string; now: Date; preferredPayout: string | null };
/** Resolves to how many money effects it may have written (unclaimed: the completion then kicks the drain). */
type CompletionHook = (tx: Tx, context: CompletionContext) => Promise<number>;
const hooks: CompletionHook[] = [];
export const afterCompletionHooks = {
  add(hook: CompletionHook) {
    if (!hooks.includes(hook)) hooks.push(hook);
  },
  async run(tx: Tx, context: CompletionContext): Promise<number> {
    let effects = 0;
    for (const hook of hooks) effects += await hook(tx, context);
    return effects;
  },
};
