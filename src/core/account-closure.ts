// Closing an account (decision 165). An account may close only when PayWeave owes its owner
// nothing: no money left on any card, no rebate waiting for a payout method. Closing then takes
// everything else with it (drafts and their holds, the paid plan, the ways to sign in), so the
// rules that can refuse are the ones about money, decided here from facts the server reads under
// the account's lock.
import { CASHOUT_MIN_AMOUNT_CENTS } from './fees';
import { formatUsd } from './money';
import { refuse, type Refusal } from './money-plan';

export type ClosureFacts = {
  /**
   * Every card's remaining balance, whatever its status (an expired card's money is still the
   * user's), and whether the user can still spend it: an active card inside its validity, frozen
   * or not (unfreezing is the user's to do).
   */
  cards: readonly { remainingCents: number; spendable: boolean }[];
  /** Rebates owed to the user and not yet paid: no preferred payout method, or one without its details (decision 172). */
  pendingRebatesCents: number;
};

export const ACCOUNT_CLOSURE_MESSAGES = {
  balance: (cents: number) => `Your cards still hold ${formatUsd(cents)}. Cash it out or spend it before you close your account.`,
  rebates: (cents: number) =>
    `${formatUsd(cents)} of buy-now-pay-later rebates is waiting to be paid to you. Add a payout method, or enter your preferred method’s details, under Payout Methods to receive it, then close your account.`,
  belowCashout: (cents: number) =>
    `Your cards still hold ${formatUsd(cents)}, on cards that can no longer be spent and less than the smallest cash-out (${formatUsd(CASHOUT_MIN_AMOUNT_CENTS)}). Contact support to have it paid to you, then close your account.`,
} as const;

/**
 * Why the account cannot close now, or null when it can. The cards' money is named first: it is
 * the larger matter. Money the user cannot move themselves (cents below the smallest cash-out on
 * an expired card) is still theirs: support pays it, rather than the closing taking it.
 */
export function accountClosureRefusal(facts: ClosureFacts): Refusal | null {
  const withMoney = facts.cards.filter((card) => card.remainingCents > 0);
  const balanceCents = withMoney.reduce((sum, card) => sum + card.remainingCents, 0);
  if (balanceCents > 0) {
    const stuck = withMoney.every((card) => !card.spendable && card.remainingCents < CASHOUT_MIN_AMOUNT_CENTS);
    return stuck ? refuse(409, 'balance_below_cashout', ACCOUNT_CLOSURE_MESSAGES.belowCashout(balanceCents)) : refuse(409, 'account_has_balance', ACCOUNT_CLOSURE_MESSAGES.balance(balanceCents));
  }
  if (facts.pendingRebatesCents > 0) return refuse(409, 'rebates_pending', ACCOUNT_CLOSURE_MESSAGES.rebates(facts.pendingRebatesCents));
  return null;
}
