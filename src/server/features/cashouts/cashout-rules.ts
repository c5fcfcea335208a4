// The cash-out's decision in the server's terms: the core's plan (core/plan-cashout.ts decides the
// method, the card, the fee, the journal, the payout and the card as the debit leaves it) turned
// into the write set the writer carries out (cashout-write.ts) and the answer the user gets.
import { planCashout, type CashoutFacts, type CashoutRequest } from '../../../core/plan-cashout';
import { writeSetOfCashout } from '../../../core/write-set-of';
import type { CashoutFee } from '../../../core/fees';
import type { PayoutMethod } from '../../../core/plans';
import type { Cashout, CreateCashoutResponse } from '../../../contracts/cashouts';
import type { transactions } from '../../db/schema';
import { effectReference, type MoneyEffect } from '../../effects/money-effects';
import type { DebitInput } from '../../ledger/card-accounts';
import { postingsOf } from '../../ledger/accounts';
import type { JournalInput, JournalTransaction } from '../../ledger/post-journal';
import { refusalError } from '../../lib/errors';
import type { Decision } from '../../money/run-money-operation';

export { CARD_FROZEN_MESSAGE, CARD_NOT_CASHABLE_MESSAGE, CARD_NOT_FOUND_MESSAGE, CASHOUT_CARD_STATUSES, methodNeedsDetailsMessage, methodNotSavedMessage } from '../../../core/plan-cashout';
export type { SavedDestinations } from '../../../core/plan-cashout';

export type CashoutInput = CashoutRequest;

/**
 * What the cash-out writes: the debit, the journal with its record, whether the method's last use
 * moves, and the card the debit must leave; and the facts it was decided on, which a writer with
 * the versions guard finds unchanged or writes nothing (money/run-money-operation.ts).
 */
export type CashoutWrite = {
  userId: string;
  debit: DebitInput;
  journal: JournalInput;
  payoutMethod: PayoutMethod;
  marksMethodUsed: boolean;
  cardAfter: CardAfter;
  decidedOn: { userVersion: string | null; destination: string; cardBefore: { status: string; remainingAmountCents: number; amountSpentCents: number } };
};
type CardAfter = { status: string; remainingAmountCents: number; amountSpentCents: number; last4: string };

/**
 * The core's decision (`facts`: as the cash-out's reader locked them) as a write set, its payout
 * and its answer. The payout carries the chosen method's destination as read with the facts
 * (decision 168), so it pays there even if the method is changed before it is sent.
 */
export function decideCashout(facts: CashoutFacts & { userVersion: string | null; userId: string; transactionId: string; demoMode: boolean }): Decision<CashoutWrite> {
  const plan = planCashout(facts);
  if (!plan.ok) return { refusal: refusalError(plan) };
  const { userId, transactionId, request, now, demoMode } = facts;
  const record: JournalTransaction = {
    ...plan.record,
    id: transactionId,
    userId,
    cardId: request.cardId,
    status: 'success',
    merchant: null,
    combineId: null,
    createdAt: now,
    simulated: demoMode,
    testSource: demoMode ? 'MVP-Demo' : '',
    environment: demoMode ? 'test' : 'production',
  };
  const [payout] = plan.effects;
  const effect: MoneyEffect = {
    kind: 'payout',
    reference: effectReference.cashoutPayout(transactionId),
    userId,
    payload: { method: payout.method, amountCents: payout.amountCents, transactionId, destination: payout.destination },
  };
  return {
    write: {
      userId,
      debit: { ...plan.debit, userId },
      journal: { kind: plan.journal.kind, userId, referenceId: transactionId, memo: plan.journal.memo, entries: postingsOf(plan.journal.lines), transactions: [record] },
      payoutMethod: request.payoutMethod,
      marksMethodUsed: plan.marksMethodUsed,
      cardAfter: plan.cardAfter,
      decidedOn: {
        userVersion: facts.userVersion,
        destination: payout.destination,
        // planCashout refuses without a card: it is there.
        cardBefore: { status: facts.card!.status, remainingAmountCents: facts.card!.remainingAmountCents, amountSpentCents: facts.card!.amountSpentCents },
      },
    },
    answer: { status: 201, body: cashoutResponse(plan.fee, record, { id: request.cardId, ...plan.cardAfter }, effect.reference) },
    effects: [effect],
    writeSet: writeSetOfCashout(facts, plan),
  };
}

function cashoutResponse(fee: CashoutFee, record: JournalTransaction, card: CardAfter & { id: string }, payoutId: string): CreateCashoutResponse {
  return {
    success: true,
    cashout: toCashout(record, card.last4),
    feeRatePpm: fee.ratePpm,
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
