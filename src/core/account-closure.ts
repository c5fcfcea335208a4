// Closing an account (decision 165). An account may close only when PayWeave owes its owner
// nothing: no money left on any card, no rebate waiting for a payout method. Closing then takes
// everything else with it (drafts and their holds, the paid plan, the ways to sign in), so the
// rules that can refuse are the ones about money, decided here from facts the server reads under
// the account's lock.
import { formatUsd } from './money';
import { refuse, type Refusal } from './money-plan';

export type ClosureFacts = {
  /** Every card's remaining balance, whatever its status: an expired card's money is still the user's. */
  cardBalancesCents: readonly number[];
  /** Rebates owed to the user and not yet paid, because the account has no preferred payout method. */
  pendingRebatesCents: number;
};

export const ACCOUNT_CLOSURE_MESSAGES = {
  balance: (cents: number) => `Your cards still hold ${formatUsd(cents)}. Cash it out or spend it before you close your account.`,
  rebates: (cents: number) =>
    `${formatUsd(cents)} of buy-now-pay-later rebates is waiting to be paid to you. Add a payout method under Payout Methods to receive it, then close your account.`,
} as const;

/** Why the account cannot close now, or null when it can. The cards' money is named first: it is the larger matter. */
export function accountClosureRefusal(facts: ClosureFacts): Refusal | null {
  const balanceCents = facts.cardBalancesCents.reduce((sum, cents) => sum + cents, 0);
  if (balanceCents > 0) return refuse(409, 'account_has_balance', ACCOUNT_CLOSURE_MESSAGES.balance(balanceCents));
  if (facts.pendingRebatesCents > 0) return refuse(409, 'rebates_pending', ACCOUNT_CLOSURE_MESSAGES.rebates(facts.pendingRebatesCents));
  return null;
}
