// The cash-out form's checks (docs/rules.md#cashout-checks) and the plan's payout rule (docs/rules.md#payout-methods-by-plan). The fee itself
// is `cashoutFee` in fees.ts.

import { CASHOUT_MIN_AMOUNT_CENTS } from './fees';
import { formatUsd, MESSAGES, parseMoneyInput } from './money';
import { isPayoutMethod, isPayoutMethodAllowed, PAYOUT_METHOD_LABELS, PLANS } from './plans';
import type { PayoutMethod, PlanId } from './plans';

export const CASHOUT_MESSAGES = {
  selectCard: 'Please select a card to cash out',
  selectPayoutMethod: 'Please select a payout method',
  invalidAmount: 'Please enter a valid amount',
  noBalance: 'This card has no remaining balance to cash out',
  noBalanceForSource: 'This card has no remaining balance to use as a source',
  /** docs/rules.md#cashout-fee: the fee is never below $0.01, and a cash-out must pay something out (decision 101). */
  belowMinimum: 'The smallest cash-out is $0.02: the fee is at least $0.01.',
} as const;

export function exceedsBalanceMessage(remainingCents: number): string {
  return `Amount cannot exceed remaining balance (${formatUsd(remainingCents)})`;
}

export function payoutNotAllowedMessage(plan: PlanId, method: PayoutMethod): string {
  return `${PAYOUT_METHOD_LABELS[method]} payouts are not available on the ${PLANS[plan].name} plan.`;
}

/**
 * Methods a cash-out screen lists (docs/rules.md#payout-methods-by-plan): the user's saved methods that the plan
 * allows, or, with none of those, every method the plan allows. "None saved" is read as "none
 * usable saved": a user whose only saved method belongs to a higher plan is not left with an
 * empty list.
 */
export function cashoutMethodChoices(plan: PlanId, saved: readonly PayoutMethod[]): PayoutMethod[] {
  const allowedSaved = saved.filter((m, i) => isPayoutMethodAllowed(plan, m) && saved.indexOf(m) === i);
  return allowedSaved.length > 0 ? allowedSaved : [...PLANS[plan].payoutMethods];
}

export type CashoutCheck =
  | { ok: true; amountCents: number; method: PayoutMethod }
  | { ok: false; message: string };

/** The card's own check: one is chosen (`remainingCents` not null) and it has money left. */
export function cashoutCardProblem(remainingCents: number | null): string | null {
  if (remainingCents === null) return CASHOUT_MESSAGES.selectCard;
  if (remainingCents <= 0) return CASHOUT_MESSAGES.noBalance;
  return null;
}

/** The payout method's own check: one is chosen, and the plan allows it. */
export function cashoutMethodProblem(plan: PlanId, method: string | null): string | null {
  if (!isPayoutMethod(method)) return CASHOUT_MESSAGES.selectPayoutMethod;
  if (!isPayoutMethodAllowed(plan, method)) return payoutNotAllowedMessage(plan, method);
  return null;
}

/** The amount's own check, against the balance of a card that has one (`remainingCents` above 0). */
export function cashoutAmountProblem(amountInput: string, remainingCents: number): string | null {
  const amount = parseMoneyInput(amountInput);
  if (!amount.ok) {
    return amount.reason === 'too_many_decimals' ? MESSAGES.tooManyDecimals
      : amount.reason === 'too_large' ? exceedsBalanceMessage(remainingCents)
      : CASHOUT_MESSAGES.invalidAmount;
  }
  if (amount.cents <= 0) return CASHOUT_MESSAGES.invalidAmount;
  if (amount.cents < CASHOUT_MIN_AMOUNT_CENTS) return CASHOUT_MESSAGES.belowMinimum;
  if (amount.cents > remainingCents) return exceedsBalanceMessage(remainingCents);
  return null;
}

/**
 * Checks in the spec's order: the card, the method, the amount (each is one of the checks above).
 * `remainingCents` is null when no card is selected; an active card with nothing left cannot be
 * cashed out at all.
 */
export function validateCashout(input: {
  plan: PlanId;
  remainingCents: number | null;
  method: string | null;
  amountInput: string;
}): CashoutCheck {
  const card = cashoutCardProblem(input.remainingCents);
  if (card !== null || input.remainingCents === null) return { ok: false, message: card ?? CASHOUT_MESSAGES.selectCard };
  const method = cashoutMethodProblem(input.plan, input.method);
  if (method !== null || !isPayoutMethod(input.method)) return { ok: false, message: method ?? CASHOUT_MESSAGES.selectPayoutMethod };
  const amount = cashoutAmountProblem(input.amountInput, input.remainingCents);
  const parsed = parseMoneyInput(input.amountInput);
  if (amount !== null || !parsed.ok) return { ok: false, message: amount ?? CASHOUT_MESSAGES.invalidAmount };
  return { ok: true, amountCents: parsed.cents, method: input.method };
}
