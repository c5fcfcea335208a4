import { describe, expect, it } from 'vitest';
import { accountClosureRefusal } from './account-closure';

const spendable = (remainingCents: number) => ({ remainingCents, spendable: true });
const expired = (remainingCents: number) => ({ remainingCents, spendable: false });

describe('accountClosureRefusal', () => {
  it('lets an account close when it is owed nothing', () => {
    expect(accountClosureRefusal({ cards: [], pendingRebatesCents: 0 })).toBeNull();
    expect(accountClosureRefusal({ cards: [spendable(0), expired(0), spendable(0)], pendingRebatesCents: 0 })).toBeNull();
  });

  it('refuses while any card holds money, naming the total', () => {
    expect(accountClosureRefusal({ cards: [spendable(0), spendable(1_250), expired(1)], pendingRebatesCents: 0 })).toEqual({
      ok: false,
      status: 409,
      code: 'account_has_balance',
      message: 'Your cards still hold $12.51. Cash it out or spend it before you close your account.',
    });
  });

  it('sends the user to support when what is left can be neither spent nor cashed out', () => {
    // $0.01 on an expired card: below the smallest cash-out ($0.02), and an expired card does not spend.
    expect(accountClosureRefusal({ cards: [expired(1), spendable(0)], pendingRebatesCents: 0 })).toEqual({
      ok: false,
      status: 409,
      code: 'balance_below_cashout',
      message:
        'Your cards still hold $0.01, on cards that can no longer be spent and less than the smallest cash-out ($0.02). Contact support to have it paid to you, then close your account.',
    });
    // Two such cards together would make a cash-out, but each is cashed out on its own.
    expect(accountClosureRefusal({ cards: [expired(1), expired(1)], pendingRebatesCents: 0 })?.code).toBe('balance_below_cashout');
    // A cent the user can still spend, or an expired card's $0.02, is theirs to move.
    expect(accountClosureRefusal({ cards: [spendable(1)], pendingRebatesCents: 0 })?.code).toBe('account_has_balance');
    expect(accountClosureRefusal({ cards: [expired(2)], pendingRebatesCents: 0 })?.code).toBe('account_has_balance');
    expect(accountClosureRefusal({ cards: [expired(1), spendable(5)], pendingRebatesCents: 0 })?.code).toBe('account_has_balance');
  });

  it('refuses while a rebate waits for a payout method', () => {
    expect(accountClosureRefusal({ cards: [spendable(0)], pendingRebatesCents: 320 })).toMatchObject({
      status: 409,
      code: 'rebates_pending',
      message: '$3.20 of buy-now-pay-later rebates is waiting to be paid to you. Add a payout method, or enter your preferred method’s details, under Payout Methods to receive it, then close your account.',
    });
  });

  it('names the cards first when both are owed', () => {
    expect(accountClosureRefusal({ cards: [spendable(5)], pendingRebatesCents: 320 })?.code).toBe('account_has_balance');
  });
});
