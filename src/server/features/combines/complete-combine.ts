// "Create Virtual Card": where a combine becomes money on a card, all of it or none of it.
// Everything is re-checked here from stored data; the client only says which choices it made
// and which figures it saw (if they differ, nothing is charged: 409 quote_changed).
//
// Two ways to do it, deciding the same things by the same rules (core/plan-completion.ts) from the
// same rows (completion-rows.ts):
// - one guarded statement without an explicit transaction (complete-in-one-statement.ts, decision
//   151), the usual way: 2 round trips (and a share of the outbox's batched completion);
// - the locked transaction below: when the user or the combine keeps changing under that
//   statement, for an expired key to be reused, for every refusal, and for the rarer completions
//   (a launch-promo spot to claim, cards used as sources to debit, BNPL rebates, a hook with work).
import { randomInt } from 'node:crypto';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { cardExpiresAt, printedExpiry, generateCardNumber } from '../../../core/cards';
import { planCompletion, QUOTE_CHANGED_MESSAGE } from '../../../core/plan-completion';
import type { CompleteCombineResponse } from '../../../contracts/combines';
import type { IssuedCard } from '../../adapters/card-processor';
import type { MoneyEffect } from '../../effects/money-effects';
import type { Tx } from '../../db/client';
import { namedStatement, placeholderValues } from '../../db/named-statement';
import { combineSources, combines, systemPromos, users } from '../../db/schema';
import { debitCard } from '../../ledger/card-accounts';
import { conflict, liveModeNotImplemented, notFound, refusalError } from '../../lib/errors';
import { claimClause, claimedColumn, IDEMPOTENCY_RETENTION_MS, requestFingerprint, withIdempotency, type ClaimInFirstStatement } from '../../lib/idempotency';
import { COMBINE_NOT_FOUND } from './combine-view';
import { PROMO_COUNTER_ID } from '../system';
import { afterCompletionHooks } from './completion-hooks';
import {
  cardOfSource,
  completionAnswer,
  completionFacts,
  completionRowsOf,
  completionSelection,
  planRows,
  quoteViewFor,
  sourceCards,
  sourceOfCombine,
  theUsersCombine,
  type CompleteInput,
  type CompletionRows,
} from './completion-rows';
import { writeCompletion } from './completion-write';
import { completeInOneStatement } from './complete-in-one-statement';

export const CREATE_CARD_FAILED = 'Failed to create virtual card';
export { QUOTE_CHANGED_MESSAGE };
export type { CompleteInput };

/** How often the one statement is tried before the locked transaction takes over. */
export const ONE_STATEMENT_ATTEMPTS = 2;

export async function completeCombine(
  app: FastifyInstance,
  userId: string,
  combineId: string,
  input: CompleteInput,
  idempotencyKey: string,
): Promise<{ status: number; body: CompleteCombineResponse; replayed: boolean }> {
  if (!app.config.demoMode) throw liveModeNotImplemented();
  // Spec: creation takes about 2 s in demo mode; the wait holds no locks.
  await app.adapters.delay('cardCreation');
  const fingerprint = requestFingerprint({ method: 'POST', route: `/api/combines/${combineId}/complete`, body: input });
  // The new card is issued before anything is written (docs/rules.md#outside-effects), with a reference derived
  // from the Idempotency-Key: a retry gets the same card from the processor. Issuing moves no
  // money; a completion refused below leaves that card unfunded and unused.
  const issued = await issueCard(app, userId, idempotencyKey, input.cardType);
  const now = app.now();

  for (let attempt = 1; attempt <= ONE_STATEMENT_ATTEMPTS; attempt += 1) {
    const outcome = await completeInOneStatement(app, {
      userId,
      combineId,
      input,
      key: idempotencyKey,
      fingerprint,
      issued,
      now,
      expiredBefore: new Date(now.getTime() - IDEMPOTENCY_RETENTION_MS),
    });
    if (outcome.kind === 'answered') {
      // The captures go out after the commit, from this process at once (decision 140).
      if (!outcome.result.replayed) app.effects.carryOut(outcome.captures);
      return { status: outcome.result.status, body: outcome.result.body as CompleteCombineResponse, replayed: outcome.result.replayed };
    }
    if (outcome.kind === 'use-transaction') break;
  }

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
  return { status: result.status, body: result.body as CompleteCombineResponse, replayed: result.replayed };
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

// The user and the combine, both locked, with the combine's sources and the cards used as sources
// (completion-rows.ts): one statement, which also claims the Idempotency-Key (a WITH clause from
// lib/idempotency.ts). Both locks come from one statement, so there is no order between them to
// get wrong; no other path locks a combine and then waits for its user (draft edits lock the
// combine only). NO KEY UPDATE, not UPDATE: inserting rows that reference the user (idempotency
// keys, cards) takes KEY SHARE on it, which conflicts with FOR UPDATE and deadlocks two concurrent
// requests. The source cards are not locked: their conditional debits below decide under concurrency.
const loadForCompletionStatement = namedStatement('load_for_completion', (db) =>
  db
    .with(claimClause(db))
    .select({ ...completionSelection, claimed: claimedColumn() })
    .from(users)
    .innerJoin(combines, eq(combines.userId, users.id))
    .leftJoin(combineSources, sourceOfCombine)
    .leftJoin(sourceCards, cardOfSource)
    .where(theUsersCombine)
    .orderBy(asc(combineSources.position))
    .for('no key update', { of: [users, combines] }),
);

async function loadForCompletion(tx: Tx, userId: string, combineId: string, claim: ClaimInFirstStatement): Promise<CompletionRows> {
  const joined = await loadForCompletionStatement(tx, placeholderValues({ claim: claim.values, completion: { userId, combineId } }));
  const loaded = completionRowsOf(joined);
  // The signed-in user exists (their session does): no row means no such combine of theirs.
  if (!loaded) throw notFound(COMBINE_NOT_FOUND);
  claim.settle(joined[0]!.claimed);
  return loaded;
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
 * else), and leave the captures in the outbox for after the commit (docs/rules.md#outside-effects).
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
  const facts = await completionFacts(tx, loaded, { userId, now, input, issued });
  const decided = planCompletion(facts);
  if (!decided.ok) {
    const figures = decided.code === 'quote_changed' || decided.code === 'underfunded';
    throw refusalError(decided, figures ? quoteViewFor(loaded, facts, input) : undefined);
  }
  // The last promo spot went to someone else between review and now: the fees differ
  // (docs/rules.md#promo-100th-spot), charge nothing and show the figures without the promo.
  if (decided.claimsPromoSpot && !(await claimPromoSpot(tx))) {
    throw conflict(QUOTE_CHANGED_MESSAGE, 'quote_changed', quoteViewFor(loaded, { ...facts, promoSpotsLeft: 0 }, input));
  }

  // The cards used as sources: each debit is conditional again (active, unfrozen, valid now, enough
  // balance), so a card changed since the read above refuses here and the whole completion rolls back.
  for (const debit of decided.debits) {
    const moved = await debitCard(tx, { ...debit, userId });
    if (!moved) throw conflict('A card used as a source changed while this card was being created, so nothing was charged. Please review and confirm again.', 'source_unavailable');
  }

  const { write, written } = planRows(app, { userId, loaded, issued, plan: decided, facts, input });
  // Without rebates the answer is final before the write, which then stores it with the
  // Idempotency-Key (one round trip less). A BNPL rebate may be paid by a hook, after the write:
  // that answer is built, and then stored, once the hooks have run.
  const finalAnswer = write.rebates.length === 0 ? await completionAnswer(tx, written, []) : null;
  const stored = await writeCompletion(tx, { ...write, store: claim.storeValues(finalAnswer && { status: 201, body: finalAnswer }) });
  claim.settleStore(stored);
  captures.written = write.effects;

  // The user row is locked since the start of this transaction: its payout choice is current.
  captures.hookEffects = await afterCompletionHooks.run(tx, { userId, now, preferredPayout: loaded.user.preferredPayout });
  return finalAnswer ?? (await completionAnswer(tx, written));
}
