import { describe, expect, it } from 'vitest';
import { combineFeesCents, COMPARISON_AMOUNTS_CENTS, comparisonRows, subscriptionCents } from './comparison';

describe('upgrade comparison table', () => {
  it('covers $999 to $10,999 in steps of $1,000', () => {
    expect(COMPARISON_AMOUNTS_CENTS[0]).toBe(99_900);
    expect(COMPARISON_AMOUNTS_CENTS.at(-1)).toBe(1_099_900);
    expect(COMPARISON_AMOUNTS_CENTS).toHaveLength(11);
  });

  it('combine fees follow the fee model: the smallest charge for the card plus the creation fee', () => {
    // A $600.00 net needs $624.67 on Free (docs/rules.md#card-source-fees table); the card is $599.90 of it.
    expect(combineFeesCents(59_990, 'free', false)).toBe(62_467 - 59_990);
    expect(combineFeesCents(59_990, 'premium', false)).toBe(62_143 - 59_990);
  });

  it('subscriptions: Free is free, monthly payments step down with loyalty, yearly is one payment', () => {
    expect(subscriptionCents('free', 'monthly', 6, 1, 'free')).toBe(0);
    // $9.99 at 0%, 10%, 20%: 999 + 899 + 799.
    expect(subscriptionCents('premium', 'monthly', 3, 1, 'free')).toBe(2_697);
    expect(subscriptionCents('premium', 'yearly', 3, 1, 'free')).toBe(9_999);
    // The current plan renewed in month 6: 50% off $19.99.
    expect(subscriptionCents('premium+', 'monthly', 1, 6, 'premium+')).toBe(999);
  });

  it('the loyalty discount is on the current plan only: an upgrade pays the list price first, then its renewals get the discount', () => {
    // A Premium subscriber in month 1 moving to Premium+: month 2 at $19.99 (not 10% off), then 20%, 30% off.
    expect(subscriptionCents('premium+', 'monthly', 3, 2, 'premium')).toBe(1_999 + 1_599 + 1_399);
    expect(subscriptionCents('premium+', 'yearly', 3, 2, 'premium')).toBe(19_999);
    // Staying on Premium: month 2 is already 10% off.
    expect(subscriptionCents('premium', 'monthly', 3, 2, 'premium')).toBe(899 + 799 + 699);
  });

  it('the cheapest plan is marked: Free for a small card used once, Premium+ for large monthly cards', () => {
    const once = comparisonRows({ months: 1, cycle: 'monthly', promoActive: false, loyaltyMonths: 0, currentPlan: 'free' });
    expect(once[0]!.cheapest).toEqual(['free']);
    const heavy = comparisonRows({ months: 6, cycle: 'monthly', promoActive: false, loyaltyMonths: 0, currentPlan: 'free' });
    expect(heavy.at(-1)!.cheapest).toEqual(['premium+']);
    for (const row of heavy) expect(row.totals[row.cheapest[0]!]).toBe(Math.min(...Object.values(row.totals)));
  });
});
