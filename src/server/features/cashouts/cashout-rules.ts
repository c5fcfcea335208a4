// What both ways of cashing out (cashout-two-statements.ts, and the locked transaction in
// create-cashout.ts) decide alike: which payout method may be used, the fee and the records, why a
// card cannot pay, and the answer.
import type { FastifyInstance } from 'fastify';
import { CASHOUT_MESSAGES, cashoutMethodChoices, exceedsBalanceMessage, payoutNotAllowedMessage } from '../../../core/cashout';
import { cashoutFee, type CashoutFee } from '../../../core/fees';
import { isPayoutMethodAllowed, PAYOUT_METHOD_LABELS, type PayoutMethod, type PlanId } from '../../../core/plans';
import { isPromoActive } from '../../../core/promo';
import type { Cashout, CreateCashoutResponse } from '../../../contracts/cashouts';
import type { transactions } from '../../db/schema';
import { cardAccountCode, SYSTEM_ACCOUNTS } from '../../ledger/accounts';
import type { JournalInput, JournalTransaction } from '../../ledger/post-journal';
import { AppError, conflict, forbidden, notFound } from '../../lib/errors';

export type CashoutInput = { cardId: string; amountCents: number; payoutMethod: PayoutMethod };

export const CARD_NOT_FOUND_MESSAGE = 'Card not found.';
export const CARD_FROZEN_MESSAGE = 'This card is frozen. Unfreeze it to cash out.';
export const CARD_NOT_CASHABLE_MESSAGE = 'This card can no longer be cashed out.';
/**
 * Statuses a card may be cashed out in. An expired card can no longer be spent, but the money on
 * it is still the user's: cashing it out is how they get it back (the cards' decision record on expired cards).
 */
export const CASHOUT_CARD_STATUSES = ['active', 'expired'] as const;

export function methodNotSavedMessage(method: PayoutMethod): string {
  return `${PAYOUT_METHOD_LABELS[method]} is not one of your payout methods. Add it in Account Settings → Payout Methods first.`;
}

/** DECISIONS §3: the plan's methods, and among them the user's saved ones when there are any. */
export function assertPayoutMethodUsable(plan: PlanId, savedMethods: readonly PayoutMethod[], method: PayoutMethod): void {
  if (!isPayoutMethodAllowed(plan, method)) throw forbidden(payoutNotAllowedMessage(plan, method), 'payout_method_not_allowed');
  if (!cashoutMethodChoices(plan, [...savedMethods]).includes(method)) throw forbidden(methodNotSavedMessage(method), 'payout_method_not_saved');
}

export type CardState = { status: string; frozen: boolean; remainingAmountCents: number };

/** Why the card cannot pay `amountCents`, or null when it can. */
export function cardRefusal(card: CardState | undefined, amountCents: number): AppError | null {
  if (!card) return notFound(CARD_NOT_FOUND_MESSAGE);
  if (card.remainingAmountCents <= 0) return conflict(CASHOUT_MESSAGES.noBalance, 'no_balance');
  if (card.frozen) return conflict(CARD_FROZEN_MESSAGE, 'card_frozen');
  if (!(CASHOUT_CARD_STATUSES as readonly string[]).includes(card.status)) return conflict(CARD_NOT_CASHABLE_MESSAGE, 'card_not_cashable');
  if (card.remainingAmountCents < amountCents) return new AppError(400, 'validation_error', exceedsBalanceMessage(card.remainingAmountCents));
  return null;
}

export type PricedCashout = { fee: CashoutFee; record: JournalTransaction; journal: JournalInput };

/** The fee of DECISIONS §2, the transaction row and the balanced journal of a cash-out. */
export function priceCashout(
  app: FastifyInstance,
  input: CashoutInput & { userId: string; plan: PlanId; promoEnd: Date | null; now: Date; transactionId: string },
): PricedCashout {
  const fee = cashoutFee({ amountCents: input.amountCents, plan: input.plan, promoActive: isPromoActive({ promoEnd: input.promoEnd, now: input.now }) });
  const demo = app.config.demoMode;
  const record: JournalTransaction = {
    id: input.transactionId,
    userId: input.userId,
    cardId: input.cardId,
    type: 'cashout',
    status: 'success',
    amountCents: input.amountCents,
    feeCents: fee.feeCents,
    netAmountCents: fee.netCents,
    payoutMethod: input.payoutMethod,
    merchant: null,
    combineId: null,
    createdAt: input.now,
    simulated: demo,
    testSource: demo ? 'MVP-Demo' : '',
    environment: demo ? 'test' : 'production',
  };
  const journal: JournalInput = {
    kind: 'cashout',
    userId: input.userId,
    referenceId: input.transactionId,
    memo: `cashout to ${input.payoutMethod}`,
    entries: [
      { accountCode: cardAccountCode(input.cardId), amountCents: -input.amountCents },
      { accountCode: SYSTEM_ACCOUNTS.payouts, amountCents: fee.netCents },
      { accountCode: SYSTEM_ACCOUNTS.cashoutFeeRevenue, amountCents: fee.feeCents },
    ],
    transactions: [record],
  };
  return { fee, record, journal };
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
