import { describe, expect, it } from 'vitest';
import { accountClosureRefusal } from './account-closure';

describe('accountClosureRefusal', () => {
  it('lets an account close when it is owed nothing', () => {
    expect(accountClosureRefusal({ cardBalancesCents: [], pendingRebatesCents: 0 })).toBeNull();
    expect(accountClosureRefusal({ cardBalancesCents: [0, 0, 0], pendingRebatesCents: 0 })).toBeNull();
  });

  it('refuses while any card holds money, naming the total', () => {
    expect(accountClosureRefusal({ cardBalancesCents: [0, 1_250, 1], pendingRebatesCents: 0 })).toEqual({
      ok: false,
      status: 409,
      code: 'account_has_balance',
      message: 'Your cards still hold $12.51. Cash it out or spend it before you close your account.',
    });
  });

  it('refuses while a rebate waits for a payout method', () => {
    expect(accountClosureRefusal({ cardBalancesCents: [0], pendingRebatesCents: 320 })).toMatchObject({
      status: 409,
      code: 'rebates_pending',
      message: '$3.20 of buy-now-pay-later rebates is waiting to be paid to you. Add a payout method under Payout Methods to receive it, then close your account.',
    });
  });

  it('names the cards first when both are owed', () => {
    expect(accountClosureRefusal({ cardBalancesCents: [5], pendingRebatesCents: 320 })?.code).toBe('account_has_balance');
  });
});
