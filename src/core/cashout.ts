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

/**
 * Checks in the spec's order. `remainingCents` is null when no card is selected; an active
 * card with nothing left cannot be cashed out at all.
 */
export function validateCashout(input: {
  plan: PlanId;
  remainingCents: number | null;
  method: string | null;
  amountInput: string;
}): CashoutCheck {
  if (input.remainingCents === null) return { ok: false, message: CASHOUT_MESSAGES.selectCard };
  if (input.remainingCents <= 0) return { ok: false, message: CASHOUT_MESSAGES.noBalance };
  if (!isPayoutMethod(input.method)) return { ok: false, message: CASHOUT_MESSAGES.selectPayoutMethod };
  if (!isPayoutMethodAllowed(input.plan, input.method)) {
    return { ok: false, message: payoutNotAllowedMessage(input.plan, input.method) };
  }
  const amount = parseMoneyInput(input.amountInput);
  if (!amount.ok) {
    return {
      ok: false,
      message: amount.reason === 'too_many_decimals' ? MESSAGES.tooManyDecimals
        : amount.reason === 'too_large' ? exceedsBalanceMessage(input.remainingCents)
        : CASHOUT_MESSAGES.invalidAmount,
    };
  }
  if (amount.cents <= 0) return { ok: false, message: CASHOUT_MESSAGES.invalidAmount };
  if (amount.cents < CASHOUT_MIN_AMOUNT_CENTS) return { ok: false, message: CASHOUT_MESSAGES.belowMinimum };
  if (amount.cents > input.remainingCents) {
    return { ok: false, message: exceedsBalanceMessage(input.remainingCents) };
  }
  return { ok: true, amountCents: amount.cents, method: input.method };
}
