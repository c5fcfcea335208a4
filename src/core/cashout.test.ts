import { describe, expect, it } from 'vitest';
import { CASHOUT_MESSAGES, cashoutAmountProblem, cashoutCardProblem, cashoutMethodChoices, cashoutMethodProblem, validateCashout } from './cashout';

const valid = { plan: 'premium' as const, remainingCents: 12_345, method: 'paypal', amountInput: '100.00' };

describe('cash-out form checks (docs/rules.md#cashout-checks)', () => {
  it('accepts a valid cash-out', () => {
    expect(validateCashout(valid)).toEqual({ ok: true, amountCents: 10_000, method: 'paypal' });
  });
  it('asks for a card, then a payout method, then an amount', () => {
    expect(validateCashout({ ...valid, remainingCents: null })).toEqual({ ok: false, message: 'Please select a card to cash out' });
    expect(validateCashout({ ...valid, method: null })).toEqual({ ok: false, message: 'Please select a payout method' });
    expect(validateCashout({ ...valid, method: 'venmo' })).toEqual({ ok: false, message: 'Please select a payout method' });
    expect(validateCashout({ ...valid, amountInput: '0' })).toEqual({ ok: false, message: 'Please enter a valid amount' });
    expect(validateCashout({ ...valid, amountInput: '' })).toEqual({ ok: false, message: 'Please enter a valid amount' });
  });
  it('refuses more than the remaining balance, naming it', () => {
    expect(validateCashout({ ...valid, amountInput: '123.46' }))
      .toEqual({ ok: false, message: 'Amount cannot exceed remaining balance ($123.45)' });
    expect(validateCashout({ ...valid, amountInput: '123.45' }).ok).toBe(true);
  });
  it('refuses a card with no balance', () => {
    expect(validateCashout({ ...valid, remainingCents: 0 })).toEqual({ ok: false, message: CASHOUT_MESSAGES.noBalance });
    expect(CASHOUT_MESSAGES.noBalance).toBe('This card has no remaining balance to cash out');
  });
  it('refuses a payout method the plan does not allow (the server enforces this)', () => {
    expect(validateCashout({ ...valid, plan: 'free' })).toEqual({ ok: false, message: 'PayPal payouts are not available on the Free plan.' });
    expect(validateCashout({ ...valid, method: 'cashapp' })).toEqual({ ok: false, message: 'Cash App payouts are not available on the Premium plan.' });
  });
});

describe('cash-out method choices (docs/rules.md#payout-methods-by-plan)', () => {
  it("lists saved methods the plan allows, or the plan's methods when none of those is saved", () => {
    expect(cashoutMethodChoices('free', [])).toEqual(['ach']);
    expect(cashoutMethodChoices('premium', [])).toEqual(['ach', 'paypal']);
    expect(cashoutMethodChoices('premium', ['cashapp', 'paypal', 'paypal'])).toEqual(['paypal']);
    expect(cashoutMethodChoices('free', ['paypal'])).toEqual(['ach']);
  });
});

describe('each input of a cash-out checked on its own', () => {
  it('says what is wrong with the card, the method or the amount, or null', () => {
    expect(cashoutCardProblem(null)).toBe(CASHOUT_MESSAGES.selectCard);
    expect(cashoutCardProblem(0)).toBe(CASHOUT_MESSAGES.noBalance);
    expect(cashoutCardProblem(1)).toBeNull();
    expect(cashoutMethodProblem('free', null)).toBe(CASHOUT_MESSAGES.selectPayoutMethod);
    expect(cashoutMethodProblem('free', 'paypal')).toBe('PayPal payouts are not available on the Free plan.');
    expect(cashoutMethodProblem('free', 'ach')).toBeNull();
    expect(cashoutAmountProblem('0', 100)).toBe(CASHOUT_MESSAGES.invalidAmount);
    expect(cashoutAmountProblem('0.01', 100)).toBe(CASHOUT_MESSAGES.belowMinimum);
    expect(cashoutAmountProblem('1.01', 100)).toBe('Amount cannot exceed remaining balance ($1.00)');
    expect(cashoutAmountProblem('1.00', 100)).toBeNull();
  });
});
