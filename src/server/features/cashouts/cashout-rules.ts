// What both ways of cashing out (the one statement, cashout-in-one-statement.ts, and the locked
// transaction in create-cashout.ts) share: the core's plan (core/plan-cashout.ts decides the
// method, the card, the fee, the journal and the payout) turned into the rows the server writes,
// its refusals turned into the API's errors, and the answer.
import type { FastifyInstance } from 'fastify';
import { cashoutCardRefusal, planCashout, type CashoutFacts, type CashoutRequest, type SavedDestinations } from '../../../core/plan-cashout';
import type { CashoutFee } from '../../../core/fees';
import type { PayoutMethod } from '../../../core/plans';
import type { Cashout, CreateCashoutResponse } from '../../../contracts/cashouts';
import type { transactions } from '../../db/schema';
import { effectReference, type MoneyEffect } from '../../effects/money-effects';
import type { DebitInput } from '../../ledger/card-accounts';
import { postingsOf } from '../../ledger/accounts';
import type { JournalInput, JournalTransaction } from '../../ledger/post-journal';
import { refusalError, type AppError } from '../../lib/errors';

export { CARD_FROZEN_MESSAGE, CARD_NOT_CASHABLE_MESSAGE, CARD_NOT_FOUND_MESSAGE, CASHOUT_CARD_STATUSES, methodNeedsDetailsMessage, methodNotSavedMessage } from '../../../core/plan-cashout';
export type { SavedDestinations };

export type CashoutInput = CashoutRequest;

export type CardState = { status: string; frozen: boolean; remainingAmountCents: number };

/** Why the card cannot pay `amountCents`, or null when it can (core/plan-cashout.ts). */
export function cardRefusal(card: CardState | undefined, amountCents: number): AppError | null {
  const refusal = cashoutCardRefusal(card, amountCents);
  return refusal && refusalError(refusal);
}

/** The core's plan carried into the rows a cash-out writes: the debit, the journal with its record, the payout. */
export type PricedCashout = { fee: CashoutFee; debit: DebitInput; record: JournalTransaction; journal: JournalInput; payout: MoneyEffect; marksMethodUsed: boolean };

/**
 * Asks the core (throwing its refusal) and names what the plan writes. `savedMethods`: the user's
 * saved, active payout methods with their destinations (decision 168; null when none was
 * registered), as the cash-out's statement read them. The core refuses a method without one
 * (decision 172); the payout carries the chosen method's destination as read with the facts, so it
 * pays there even if the method is removed or changed before the drain sends it.
 */
export function priceCashout(app: FastifyInstance, facts: CashoutFacts & { userId: string; transactionId: string }): PricedCashout {
  const plan = planCashout(facts);
  if (!plan.ok) throw refusalError(plan);
  const { userId, transactionId, request, now } = facts;
  const demo = app.config.demoMode;
  const record: JournalTransaction = {
    ...plan.record,
    id: transactionId,
    userId,
    cardId: request.cardId,
    status: 'success',
    merchant: null,
    combineId: null,
    createdAt: now,
    simulated: demo,
    testSource: demo ? 'MVP-Demo' : '',
    environment: demo ? 'test' : 'production',
  };
  const [payout] = plan.effects;
  return {
    fee: plan.fee,
    debit: { ...plan.debit, userId },
    record,
    journal: { kind: plan.journal.kind, userId, referenceId: transactionId, memo: plan.journal.memo, entries: postingsOf(plan.journal.lines), transactions: [record] },
    payout: {
      kind: 'payout',
      reference: effectReference.cashoutPayout(transactionId),
      userId,
      payload: { method: payout.method, amountCents: payout.amountCents, transactionId, destination: payout.destination },
    },
    marksMethodUsed: plan.marksMethodUsed,
  };
}

export function cashoutResponse(
  priced: PricedCashout,
  card: { id: string; last4: string; status: string; remainingAmountCents: number; amountSpentCents: number },
  payoutId: string,
): CreateCashoutResponse {
  return {
    success: true,
    cashout: toCashout(priced.record, card.last4),
    feeRatePpm: priced.fee.ratePpm,
    card: { id: card.id, status: card.status as CreateCashoutResponse['card']['status'], remainingAmountCents: card.remainingAmountCents, amountSpentCents: card.amountSpentCents },
    payoutId,
  };
}

type TransactionRow = Pick<
  typeof transactions.$inferSelect,
  'id' | 'cardId' | 'amountCents' | 'feeCents' | 'netAmountCents' | 'payoutMethod' | 'status' | 'createdAt' | 'simulated' | 'testSource' | 'environment'
>;

export function toCashout(row: TransactionRow, cardLast4: string): Cashout {
  return {
    id: row.id,
    type: 'cashout',
    cardId: row.cardId,
    cardLast4,
    amountCents: row.amountCents,
    feeCents: row.feeCents,
    netAmountCents: row.netAmountCents,
    payoutMethod: row.payoutMethod as PayoutMethod,
    status: row.status as Cashout['status'],
    createdAt: row.createdAt.toISOString(),
    simulated: row.simulated,
    testSource: row.testSource,
    environment: row.environment,
  };
}
