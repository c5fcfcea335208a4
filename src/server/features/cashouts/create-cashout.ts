// Cash out: money leaves a card for a payout method: the plan's payout rule, the fee of
// docs/rules.md#fee-examples, a conditional balance update that can never go below zero, the balanced journal,
// the transaction record and the payout itself, all committed together with the Idempotency-Key.
//
// Two ways to do it, deciding the same things by the same rules (cashout-rules.ts):
// - one statement without an explicit transaction (cashout-in-one-statement.ts, decision 018),
//   the usual way: 1 or 2 round trips;
// - one locked transaction (below): when the user's facts keep changing under that statement, and
//   for an expired key to be reused. It locks the user and then debits the card, so it never
//   needs to try again.
import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { exceedsBalanceMessage } from '../../../core/cashout';
import type { PlanId } from '../../../core/plans';
import type { CreateCashoutResponse } from '../../../contracts/cashouts';
import type { Tx } from '../../db/client';
import { namedStatement } from '../../db/named-statement';
import { cards, payoutMethods, users } from '../../db/schema';
import { debitAndPostJournal } from '../../ledger/debit-and-post';
import { AppError, liveModeNotImplemented, notFound } from '../../lib/errors';
import {
  claimClause,
  claimedColumn,
  IDEMPOTENCY_RETENTION_MS,
  requestFingerprint,
  withIdempotency,
  type ClaimInFirstStatement,
  type StoredResponse,
} from '../../lib/idempotency';
import { cardRefusal, cashoutResponse, priceCashout, type CashoutInput, type SavedDestinations } from './cashout-rules';
import { cashoutInOneStatement } from './cashout-in-one-statement';
import { enqueueEffects, type MoneyEffect } from '../../effects/money-effects';

export { CARD_FROZEN_MESSAGE, CARD_NOT_CASHABLE_MESSAGE, CARD_NOT_FOUND_MESSAGE, CASHOUT_CARD_STATUSES, methodNotSavedMessage, toCashout } from './cashout-rules';
export type { CashoutInput } from './cashout-rules';

/** How often the one statement is tried before the locked transaction takes over. */
export const ONE_STATEMENT_ATTEMPTS = 2;

export async function createCashout(
  app: FastifyInstance,
  userId: string,
  input: CashoutInput,
  idempotencyKey: string,
): Promise<{ status: number; body: CreateCashoutResponse; replayed: boolean }> {
  // docs/rules.md#live-mode: live cash-outs are not built; refuse before anything is read or written.
  if (!app.config.demoMode) throw liveModeNotImplemented();
  // Spec: the cash-out takes about 2 s in demo mode. The wait holds no lock and no connection.
  await app.adapters.delay('cashout');
  const fingerprint = requestFingerprint({ method: 'POST', route: '/api/cashouts', body: input });
  const result = await cashOut(app, userId, input, idempotencyKey, fingerprint);
  // The payout goes out after the commit (decision 030); a replay wrote nothing new to send. The
  // one statement wrote it claimed, for this process to send at once (decision 140).
  if (result.payout) app.effects.carryOut([result.payout]);
  else if (!result.replayed) app.effects.kick();
  return { status: result.status, body: result.body as CreateCashoutResponse, replayed: result.replayed };
}

async function cashOut(
  app: FastifyInstance,
  userId: string,
  input: CashoutInput,
  key: string,
  fingerprint: string,
): Promise<StoredResponse & { replayed: boolean; payout?: MoneyEffect }> {
  const now = app.now();
  for (let attempt = 1; attempt <= ONE_STATEMENT_ATTEMPTS; attempt += 1) {
    const outcome = await cashoutInOneStatement(app, { userId, input, key, fingerprint, expiredBefore: new Date(now.getTime() - IDEMPOTENCY_RETENTION_MS) });
    if (outcome.kind === 'answered') return { ...outcome.result, ...(outcome.payout ? { payout: outcome.payout } : {}) };
    if (outcome.kind === 'use-transaction') break;
  }
  return withIdempotency(
    app.db,
    { userId, key, fingerprint, now },
    async (tx, claim) => ({ status: 201, body: await cashoutInTransaction(app, tx, userId, input, claim) }),
    { claimInFirstStatement: true },
  );
}

// The user's plan and promo, under a share lock: concurrent cash-outs of the same user do not wait
// for each other here, and whatever changes the plan or the payout methods locks the user row
// first, so neither can change under this cash-out once the lock is held. The statement also
// claims the Idempotency-Key (a WITH clause, lib/idempotency.ts). A named statement built once
// (db/named-statement.ts).
const cashoutUserStatement = namedStatement('cashout_user', (db) =>
  db
    .with(claimClause(db))
    .select({ subscription: users.subscription, promoEnd: users.promoEnd, claimed: claimedColumn() })
    .from(users)
    .where(eq(users.id, sql.placeholder('userId')))
    .for('share'),
);

// The saved payout methods with each one's payout destination (decision 168), read by a statement
// of its own, after the lock: a statement reads the database as it was when the statement began,
// so read with the lock, they could be those a method change replaced while this waited for it.
const savedDestinationsStatement = namedStatement('cashout_saved_destinations', (db) =>
  db
    .select({ saved: sql<SavedDestinations | null>`jsonb_object_agg(${payoutMethods.method}, ${payoutMethods.destinationRef})` })
    .from(payoutMethods)
    .where(and(eq(payoutMethods.userId, sql.placeholder('userId')), eq(payoutMethods.status, 'active'))),
);

async function cashoutInTransaction(app: FastifyInstance, tx: Tx, userId: string, input: CashoutInput, claim: ClaimInFirstStatement): Promise<CreateCashoutResponse> {
  const now = app.now();
  // Lock order everywhere: user, then cards.
  const [user] = await cashoutUserStatement(tx, { userId, ...claim.values });
  if (!user) throw notFound('Account not found.');
  claim.settle(user.claimed);
  const [methods] = await savedDestinationsStatement(tx, { userId });
  // The core decides (core/plan-cashout.ts); the conditional debit is then the guard: it takes the
  // money only if it is there, so concurrent cash-outs of one card can never together take more
  // than the card holds. The journal and the transaction row are written by the same statement,
  // only if the debit happened.
  const priced = priceCashout(app, { request: input, userId, plan: user.subscription as PlanId, promoEnd: user.promoEnd, savedMethods: methods?.saved ?? {}, now, transactionId: randomUUID() });
  const posted = await debitAndPostJournal(tx, priced.debit, priced.journal);
  if (!posted) throw await whyCardCannotPay(tx, userId, input);

  // docs/rules.md#payout-method-settings: a payout method's last_used moves when it is used (always a saved one: only a saved
  // method has a registered destination, decision 172).
  if (priced.marksMethodUsed) {
    await tx
      .update(payoutMethods)
      .set({ lastUsed: now })
      .where(and(eq(payoutMethods.userId, userId), eq(payoutMethods.method, input.payoutMethod)));
  }

  // The payout is a row of this transaction, sent by the drain once it commits (docs/rules.md#outside-effects).
  await enqueueEffects(tx, [priced.payout]);
  return cashoutResponse(priced, { id: input.cardId, ...posted.card }, priced.payout.reference);
}

/** The debit was refused: say why, from the card as it is now. */
async function whyCardCannotPay(tx: Tx, userId: string, input: CashoutInput) {
  const [card] = await tx
    .select({ status: cards.status, frozen: cards.frozen, remainingAmountCents: cards.remainingAmountCents })
    .from(cards)
    .where(and(eq(cards.id, input.cardId), eq(cards.userId, userId)));
  // The debit refused, so the card was short when it ran, whatever it holds now.
  return cardRefusal(card, input.amountCents) ?? new AppError(400, 'validation_error', exceedsBalanceMessage(card?.remainingAmountCents ?? 0));
}
