// "Create Virtual Card": the one transaction in which a combine becomes money on a card.
// Everything is re-checked here from stored data; the client only says which choices it made
// and which figures it saw (if they differ, nothing is charged: 409 quote_changed).
import { randomInt } from 'node:crypto';
import { and, asc, count, eq, gte, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { applyCombineCompletion, BOOST_EARNED_MESSAGE, canUseBoost } from '../../../core/boosts';
import { cardExpiresAt, printedExpiry, generateCardNumber, maskCardNumber } from '../../../core/cards';
import { fundingCheck } from '../../../core/quote';
import { checkMonthlyLimit, monthStartUtc } from '../../../core/limits';
import { PLANS } from '../../../core/plans';
import { PROMO, promoEndFrom } from '../../../core/promo';
import type { CompleteCombineResponse } from '../../../contracts/combines';
import type { IssuedCard } from '../../adapters/card-processor';
import { effectReference, type MoneyEffect } from '../../effects/money-effects';
import type { DbOrTx, Tx } from '../../db/client';
import { namedStatement } from '../../db/named-statement';
import { combineSources, combines, systemPromos, users } from '../../db/schema';
import { cardAccountCode, SYSTEM_ACCOUNTS } from '../../ledger/accounts';
import { cardWithAccountValues, debitCard, type CardRow, type NewCard } from '../../ledger/card-accounts';
import type { JournalTransaction, Posting } from '../../ledger/post-journal';
import { encryptCardSecret } from '../../lib/card-crypto';
import { badRequest, conflict, forbidden, liveModeNotImplemented, notFound } from '../../lib/errors';
import { claimClause, claimedColumn, requestFingerprint, withIdempotency, type ClaimInFirstStatement } from '../../lib/idempotency';
import { buildCombineView, COMBINE_NOT_FOUND, type CombineRow, type SourceRow } from './combine-view';
import { PROMO_COUNTER_ID } from '../system/promo-status';
import { writeCompletion, type NewRebate } from './completion-write';
import { pricingFor, remainingPromoSpots, type Pricing, type UserRow } from './pricing';
import { computeQuote, type QuoteChoices } from './quote-service';

export const CREATE_CARD_FAILED = 'Failed to create virtual card';
export const QUOTE_CHANGED_MESSAGE = 'The fees changed since you reviewed them, so nothing was charged. Please review the new figures and confirm again.';

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
  const result = await withIdempotency(
    app.db,
    { userId, key: idempotencyKey, fingerprint, now: app.now() },
    async (tx, claim) => ({ status: 201, body: await completeInTransaction(app, tx, userId, combineId, input, claim, issued) }),
    { claimInFirstStatement: true },
  );
  // The captures (and any rebate payout) go out after the commit; a replay wrote nothing new.
  if (!result.replayed) app.effects.kick();
  return { status: result.status, body: result.body as CompleteCombineResponse };
}

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

// The user and the combine, both locked, and the combine's sources: one statement (which also
// claims the Idempotency-Key, a WITH clause from lib/idempotency.ts), one row per
// source (the user's and the combine's columns repeated; a draft has a handful of sources). Both
// locks come from one statement, so there is no order between them to get wrong; no other path
// locks a combine and then waits for its user (draft edits lock the combine only).
// NO KEY UPDATE, not UPDATE: inserting rows that reference the user (idempotency keys, cards) takes
// KEY SHARE on it, which conflicts with FOR UPDATE and deadlocks two concurrent requests.
const loadForCompletionStatement = namedStatement('load_for_completion', (db) =>
  db
    .with(claimClause(db))
    .select({ users, combines, combine_sources: combineSources, claimed: claimedColumn() })
    .from(users)
    .innerJoin(combines, eq(combines.userId, users.id))
    .leftJoin(combineSources, eq(combineSources.combineId, combines.id))
    .where(and(eq(users.id, sql.placeholder('userId')), eq(combines.id, sql.placeholder('combineId'))))
    .orderBy(asc(combineSources.position))
    .for('no key update', { of: [users, combines] }),
);

async function loadForCompletion(tx: Tx, userId: string, combineId: string, claim: ClaimInFirstStatement): Promise<{ user: UserRow; row: CombineRow; sources: SourceRow[] }> {
  const joined = await loadForCompletionStatement(tx, { userId, combineId, ...claim.values });
  const first = joined[0];
  // The signed-in user exists (their session does): no row means no such combine of theirs.
  if (!first) throw notFound(COMBINE_NOT_FOUND);
  claim.settle(first.claimed);
  return { user: first.users, row: first.combines, sources: joined.flatMap((r) => (r.combine_sources ? [r.combine_sources] : [])) };
}

async function completeInTransaction(
  app: FastifyInstance,
  tx: Tx,
  userId: string,
  combineId: string,
  input: CompleteInput,
  claim: ClaimInFirstStatement,
  issued: IssuedCard,
): Promise<CompleteCombineResponse> {
  const now = app.now();
  // Lock order everywhere: the user and the combine (one statement), then the promo counter, then cards.
  const { user, row, sources } = await loadForCompletion(tx, userId, combineId, claim);
  if (row.status === 'completed') throw conflict('This combine is already completed.', 'already_completed');
  if (row.status !== 'in_progress' && row.status !== 'incomplete') throw conflict('This combine can no longer be completed.', 'not_a_draft');

  const plan = user.subscription as Parameters<typeof checkMonthlyLimit>[0]['plan'];
  // Only a plan with a monthly limit needs this month's count (Premium+ has none).
  let completedThisMonth = 0;
  if (PLANS[plan].monthlyCombineLimit !== null) {
    const [counted] = await tx
      .select({ completedThisMonth: count() })
      .from(combines)
      .where(and(eq(combines.userId, userId), eq(combines.status, 'completed'), gte(combines.completedAt, monthStartUtc(now))));
    completedThisMonth = Number(counted?.completedThisMonth ?? 0);
  }
  const limit = checkMonthlyLimit({ plan, completedThisMonth });
  if (!limit.ok) throw forbidden(limit.message, 'limit_reached');

  if (sources.some((s) => s.type === 'bnpl' && !s.bnplCardToken)) {
    throw badRequest('Please enter the one-time card from your BNPL provider before creating the card.');
  }
  if (input.useBoost) {
    const boost = canUseBoost({ boostsAvailable: user.boostsAvailable, boostsUsed: user.boostsUsed });
    if (!boost.ok) throw conflict(boost.message, 'boost_unavailable');
  }

  const pricing = pricingFor(user, row.totalAmountCents, await remainingPromoSpots(tx, user, row.totalAmountCents, now), now);
  const { core: quote, api: quoteView } = computeQuote(row, sources, user, pricing, input);
  // Figures first: a user who reviewed other numbers must see the new ones (which may also say
  // the sources no longer cover the total, canContinue = false).
  if (
    quote.cardAmountCents !== input.expected.cardAmountCents ||
    quote.totalChargedCents !== input.expected.totalChargedCents ||
    quote.productFeeCents !== input.expected.productFeeCents
  ) {
    throw conflict(QUOTE_CHANGED_MESSAGE, 'quote_changed', quoteView);
  }
  const funding = fundingCheck(quote);
  if (!funding.ok) throw conflict(funding.message, 'underfunded', quoteView);

  // The launch promo: a conditional increment that can never pass 100 (and a CHECK behind it).
  let promoApplied = false;
  if (pricing.promoClaim) {
    const claimed = await tx
      .update(systemPromos)
      .set({ first100PromoClaimed: sql`${systemPromos.first100PromoClaimed} + 1` })
      .where(and(eq(systemPromos.id, PROMO_COUNTER_ID), sql`${systemPromos.first100PromoClaimed} < ${systemPromos.limitCount}`))
      .returning({ claimed: systemPromos.first100PromoClaimed });
    // The last spot went to someone else between review and now: the fees differ, charge nothing.
    if (claimed.length === 0) {
      const { api } = computeQuote(row, sources, user, pricingFor(user, row.totalAmountCents, 0, now), input);
      throw conflict(QUOTE_CHANGED_MESSAGE, 'quote_changed', api);
    }
    promoApplied = true;
  }

  // Internal sources move money between the user's own cards, in this transaction. The external
  // holds are captured after the commit, from the effects this transaction writes (DECISIONS §7):
  // if any debit here fails, nothing is captured.
  const entries: Posting[] = [];
  const captures: MoneyEffect[] = [];
  for (const [index, source] of sources.entries()) {
    const q = quote.sources[index];
    if (!q) throw new Error('quote and sources out of step');
    if (source.type === 'internal') {
      const moved = await debitCard(tx, {
        cardId: source.sourceCardId ?? '',
        userId,
        amountCents: q.chargedCents,
        validAt: now,
        statusAtZero: null,
      });
      if (!moved) throw conflict('The card used as a source no longer has that balance available.', 'source_unavailable');
      entries.push({ accountCode: cardAccountCode(source.sourceCardId ?? ''), amountCents: -q.chargedCents });
    } else {
      if (source.authorizationId) captures.push(captureEffect(userId, combineId, source.authorizationId, q.chargeCents + q.creationFeeCents));
      if (source.bnplTransactionId) captures.push(captureEffect(userId, combineId, source.bnplTransactionId, q.oneTimeCardChargeCents ?? q.chargeCents));
      entries.push({ accountCode: SYSTEM_ACCOUNTS.fundingSources, amountCents: -q.chargedCents });
    }
  }

  const cardType = input.cardType;
  const validUntil = cardExpiresAt(cardType, now);
  const cardId = crypto.randomUUID();
  const flags = { simulated: row.simulated, testSource: row.testSource, environment: row.environment };
  const newCard: NewCard = {
    id: cardId,
    userId,
    combineId,
    type: cardType,
    status: 'active',
    frozen: false,
    issuedAt: now,
    validUntil,
    expMonth: issued.expMonth,
    expYear: issued.expYear,
    network: issued.network,
    last4: issued.number.slice(-4),
    numberEnc: encryptCardSecret(app.config.cardDataKey, issued.number, cardId),
    cvvEnc: encryptCardSecret(app.config.cardDataKey, issued.cvv, cardId),
    originalAmountCents: quote.cardAmountCents,
    amountSpentCents: 0,
    remainingAmountCents: quote.cardAmountCents,
    promoApplied,
    promoId: promoApplied ? PROMO.id : null,
    providerRef: issued.providerRef,
    ...flags,
  };

  entries.push(
    { accountCode: cardAccountCode(cardId), amountCents: quote.cardAmountCents },
    { accountCode: SYSTEM_ACCOUNTS.processorFees, amountCents: quote.processorFeeCents },
    { accountCode: SYSTEM_ACCOUNTS.productFeeRevenue, amountCents: quote.productFeeCents },
    { accountCode: SYSTEM_ACCOUNTS.bnplProviderFees, amountCents: quote.bnplFeeActualCents },
    { accountCode: SYSTEM_ACCOUNTS.rebatesPayable, amountCents: quote.rebateCents },
    { accountCode: SYSTEM_ACCOUNTS.creationFeeRevenue, amountCents: quote.creationFeeCents },
  );
  // What the user sees: the new card's funding, and a transfer out of each internal source card.
  const record = { userId, status: 'success' as const, payoutMethod: null, combineId, createdAt: now, ...flags };
  const records: JournalTransaction[] = [
    {
      ...record,
      id: crypto.randomUUID(),
      cardId,
      type: 'funding',
      amountCents: quote.cardAmountCents,
      feeCents: quote.productFeeCents + quote.processorFeeCents + quote.bnplFeeActualCents + quote.creationFeeCents,
      netAmountCents: quote.cardAmountCents,
      merchant: null,
    },
  ];
  const capturedSources: SourceRow[] = [];
  // BNPL rebates: owed to the user until a payout method exists to receive them.
  const newRebates: NewRebate[] = [];
  for (const [index, source] of sources.entries()) {
    const q = quote.sources[index]!;
    if (source.type === 'internal' && source.sourceCardId) {
      records.push({
        ...record,
        id: crypto.randomUUID(),
        cardId: source.sourceCardId,
        type: 'transfer_out',
        amountCents: q.chargedCents,
        feeCents: q.productFeeCents + q.creationFeeCents,
        netAmountCents: q.netCents,
        merchant: `To card •••• ${newCard.last4}`,
      });
    }
    if (source.type === 'bnpl') {
      newRebates.push({
        id: crypto.randomUUID(),
        sourceId: source.id,
        transactionId: source.bnplTransactionId,
        bnplFeeMaxCents: q.bnplFeeMaxCents,
        bnplFeeActualCents: q.bnplFeeActualCents,
        rebateAmountCents: q.rebateCents,
      });
    }
    capturedSources.push({
      ...source,
      status: 'captured',
      processorFeeCents: q.processorFeeCents,
      productFeeCents: q.productFeeCents,
      netCents: q.netCents,
      bnplFeeMaxCents: q.bnplFeeMaxCents,
      bnplFeeActualCents: q.bnplFeeActualCents,
      rebateCents: q.rebateCents,
      creationFeeCents: q.creationFeeCents,
    });
  }

  const counts = applyCombineCompletion({
    combineTotal: user.combineTotal,
    boostsAvailable: user.boostsAvailable,
    boostsUsed: user.boostsUsed,
    usedBoost: quoteView.boostUsed,
  });
  const completedFields = {
    useBoost: quoteView.boostUsed,
    creationFeeSourceIdx: input.creationFeeSourceIdx,
    cardType,
    bnplFeeMaxCents: quote.bnplFeeMaxCents,
    bnplFeeActualCents: quote.bnplFeeActualCents,
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
    boostEarned: counts.earnedBoost,
  };

  // Without rebates the answer is final before the write, which then stores it with the
  // Idempotency-Key (one round trip less). A BNPL rebate may be paid by a hook, after the write:
  // that answer is built, and then stored, once the hooks have run.
  const finalAnswer = newRebates.length === 0 ? await completionAnswer(tx, written, []) : null;
  const stored = await writeCompletion(tx, {
    userId,
    combineId,
    now,
    card,
    journal: { kind: 'combine_completion', userId, referenceId: combineId, memo: `combine ${combineId}`, entries, transactions: records },
    rebates: newRebates,
    counters: { combineTotal: counts.combineTotal, boostsAvailable: counts.boostsAvailable, boostsUsed: counts.boostsUsed },
    promoApplied,
    promoEnd: promoEndFrom(now),
    captured: capturedSources,
    effects: captures,
    combine: completedFields,
    store: claim.storeValues(finalAnswer && { status: 201, body: finalAnswer }),
  });
  claim.settleStore(stored);

  // The user row is locked since the start of this transaction: its payout choice is current.
  await afterCompletionHooks.run(tx, { userId, now, preferredPayout: user.preferredPayout });
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
type CompletionHook = (tx: Tx, context: CompletionContext) => Promise<void>;
const hooks: CompletionHook[] = [];
export const afterCompletionHooks = {
  add(hook: CompletionHook) {
    if (!hooks.includes(hook)) hooks.push(hook);
  },
  async run(tx: Tx, context: CompletionContext) {
    for (const hook of hooks) await hook(tx, context);
  },
};
