// What both ways of completing a combine share (complete-combine.ts: the locked transaction;
// complete-in-one-statement.ts: one guarded statement, decision 151): the facts the core decides
// on, and the rows and the answer its plan turns into. Nothing here writes.
import { and, count, eq, gte, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { FastifyInstance } from 'fastify';
import { BOOST_EARNED_MESSAGE } from '../../../core/boosts';
import { maskCardNumber } from '../../../core/cards';
import { monthStartUtc } from '../../../core/limits';
import type { CardFacts } from '../../../core/money-plan';
import { notADraftRefusal, type CompletionFacts, type CompletionPlan } from '../../../core/plan-completion';
import { PLANS, type PlanId } from '../../../core/plans';
import { PROMO, promoEndFrom } from '../../../core/promo';
import type { CompleteCombineResponse } from '../../../contracts/combines';
import type { IssuedCard } from '../../adapters/card-processor';
import type { DbOrTx } from '../../db/client';
import { cards, combineSources, combines, users } from '../../db/schema';
import { effectReference, type MoneyEffect } from '../../effects/money-effects';
import { postingsOf } from '../../ledger/accounts';
import { cardWithAccountValues, type CardRow, type NewCard } from '../../ledger/card-accounts';
import type { JournalTransaction } from '../../ledger/post-journal';
import { encryptCardSecret } from '../../lib/card-crypto';
import { buildCombineView, type CombineRow, type SourceRow } from './combine-view';
import type { CompletionWrite, NewRebate } from './completion-write';
import { pricingFor, remainingPromoSpots, type Pricing, type UserRow } from './pricing';
import { computeQuote, type QuoteChoices } from './quote-service';

export type CompleteInput = QuoteChoices & { expected: { cardAmountCents: number; totalChargedCents: number; productFeeCents: number } };

/** The rows a completion decides on: the user, the combine, its sources and the cards used as sources. */
export type CompletionRows = { user: UserRow; row: CombineRow; sources: SourceRow[]; sourceCards: CardFacts[] };

// The user, the combine, its sources and the cards used as sources, one row per source (the
// user's and the combine's columns repeated; a draft has a handful of sources). Both ways select
// these and join them alike; they differ in what else they select and lock.
export const sourceCards = alias(cards, 'source_card');
export const completionSelection = {
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
};
export const sourceOfCombine = eq(combineSources.combineId, combines.id);
export const cardOfSource = and(eq(sourceCards.id, combineSources.sourceCardId), eq(sourceCards.userId, users.id));
export const theUsersCombine = and(eq(users.id, sql.placeholder('userId')), eq(combines.id, sql.placeholder('combineId')));

type JoinedRow = { users: UserRow; combines: CombineRow; combine_sources: SourceRow | null; source_card: CardFacts | null };

/** The joined rows as one completion's rows; null when there is no such combine of the user's. */
export function completionRowsOf(joined: JoinedRow[]): CompletionRows | null {
  const first = joined[0];
  if (!first) return null;
  return {
    user: first.users,
    row: first.combines,
    sources: joined.flatMap((r) => (r.combine_sources ? [r.combine_sources] : [])),
    sourceCards: joined.flatMap((r) => (r.source_card ? [r.source_card] : [])),
  };
}

/** Completed combines this month, read only for a plan that has a monthly limit. */
async function completedThisMonth(db: DbOrTx, userId: string, plan: PlanId, now: Date): Promise<number> {
  if (PLANS[plan].monthlyCombineLimit === null) return 0;
  const [counted] = await db
    .select({ completed: count() })
    .from(combines)
    .where(and(eq(combines.userId, userId), eq(combines.status, 'completed'), gte(combines.completedAt, monthStartUtc(now))));
  return Number(counted?.completed ?? 0);
}

/**
 * The core's facts (core/plan-completion.ts) from the loaded rows. The month's count and the
 * promo counter are read on `db` only when they can matter.
 */
export async function completionFacts(
  db: DbOrTx,
  loaded: CompletionRows,
  request: { userId: string; now: Date; input: CompleteInput; issued: IssuedCard },
): Promise<CompletionFacts> {
  const { user, row, sources } = loaded;
  const { userId, now, input, issued } = request;
  const plan = user.subscription as PlanId;
  return {
    now,
    combine: { id: row.id, status: row.status, totalAmountCents: row.totalAmountCents, taxBufferCents: row.taxBufferCents, createdAt: row.createdAt },
    sources,
    sourceCards: loaded.sourceCards,
    user: { plan, boostsAvailable: user.boostsAvailable, boostsUsed: user.boostsUsed, combineTotal: user.combineTotal, promoEnd: user.promoEnd, hasPromo: user.promo50offFirstYear },
    // Read only when they can matter: a draft that is no draft is refused before either counts.
    completedThisMonth: notADraftRefusal(row.status, 'complete') ? 0 : await completedThisMonth(db, userId, plan, now),
    promoSpotsLeft: await remainingPromoSpots(db, user, row.totalAmountCents, now),
    choices: { useBoost: input.useBoost, creationFeeSourceIdx: input.creationFeeSourceIdx, cardType: input.cardType },
    expected: input.expected,
    newCard: { id: crypto.randomUUID(), last4: issued.number.slice(-4) },
  };
}

/** The review step's figures for these facts, sent with a refusal that is about them. */
export function quoteViewFor(
  loaded: Pick<CompletionRows, 'row' | 'sources' | 'user'>,
  facts: Pick<CompletionFacts, 'now' | 'promoSpotsLeft'>,
  input: CompleteInput,
): CompleteCombineResponse['quote'] {
  const { row, sources, user } = loaded;
  return computeQuote(row, sources, user, pricingFor(user, row.totalAmountCents, facts.promoSpotsLeft, facts.now), input).api;
}

function captureEffect(userId: string, combineId: string, authorizationId: string, amountCents: number): MoneyEffect {
  return { kind: 'capture', reference: effectReference.capture(authorizationId), userId, payload: { authorizationId, amountCents, combineId } };
}

export type WrittenRows = {
  card: CardRow;
  combine: CombineRow;
  sources: SourceRow[];
  pricing: Pricing;
  quoteView: CompleteCombineResponse['quote'];
  promoApplied: boolean;
  boostEarned: boolean;
};

/** A completion's rows: what its write stores (all but the key's answer) and the rows as that write leaves them. */
export type PlannedRows = { write: Omit<CompletionWrite, 'store'>; written: WrittenRows };

/** The plan's rows for the completion's write (completion-write.ts), and the rows as it leaves them. */
export function planRows(
  app: FastifyInstance,
  context: { userId: string; loaded: CompletionRows; issued: IssuedCard; plan: CompletionPlan; facts: CompletionFacts; input: CompleteInput },
): PlannedRows {
  const { userId, issued, plan, facts, input } = context;
  const { row, sources, user } = context.loaded;
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
    promoDiscount: plan.promoHalvedFee,
    bnplFeeMaxCents: plan.quote.bnplFeeMaxCents,
    bnplFeeActualCents: plan.quote.bnplFeeActualCents,
    rebateId: newRebates[0]?.id ?? null,
  };
  // The rows as the write leaves them (it writes them only while the user and the combine are
  // locked, so nothing else changes them): the answer is built from these, not read back.
  const card = cardWithAccountValues(newCard, newCard.remainingAmountCents);
  return {
    write: {
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
      effects: plan.effects.map((e) => captureEffect(userId, combineId, e.authorizationId, e.amountCents)),
      effectLeaseSeconds: app.effects.leaseSeconds,
      combine: completedFields,
    },
    written: {
      card: card.row,
      combine: { ...row, ...completedFields, status: 'completed', cardId, completedAt: now, updatedAt: now, currentStep: 7, promoApplied },
      sources: capturedSources,
      pricing,
      quoteView,
      promoApplied,
      boostEarned: plan.counters.earnedBoost,
    },
  };
}

/** The completion's answer from the rows it wrote; its rebates are given ([]) or read (after the hooks may have paid them). */
export async function completionAnswer(db: DbOrTx, written: WrittenRows, rebates?: []): Promise<CompleteCombineResponse> {
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
