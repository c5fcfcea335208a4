import { describe, expect, it } from 'vitest';
import { combineFeesCents, COMPARISON_AMOUNTS_CENTS, comparisonRows, subscriptionCents } from './comparison';

describe('upgrade comparison table', () => {
  it('covers $999 to $10,999 in steps of $1,000', () => {
    expect(COMPARISON_AMOUNTS_CENTS[0]).toBe(99_900);
    expect(COMPARISON_AMOUNTS_CENTS.at(-1)).toBe(1_099_900);
    expect(COMPARISON_AMOUNTS_CENTS).toHaveLength(11);
  });

  it('combine fees follow the fee model: the smallest charge for the card plus the creation fee', () => {
    // A $600.00 net needs $624.67 on Free (DECISIONS §2 table); the card is $599.90 of it.
    expect(combineFeesCents(59_990, 'free', false)).toBe(62_467 - 59_990);
    expect(combineFeesCents(59_990, 'premium', false)).toBe(62_143 - 59_990);
  });

  it('subscriptions: Free is free, monthly payments step down with loyalty, yearly is one payment', () => {
    expect(subscriptionCents('free', 'monthly', 6, 1)).toBe(0);
    // $9.99 at 0%, 10%, 20%: 999 + 899 + 799.
    expect(subscriptionCents('premium', 'monthly', 3, 1)).toBe(2_697);
    expect(subscriptionCents('premium', 'yearly', 3, 1)).toBe(9_999);
    expect(subscriptionCents('premium+', 'monthly', 1, 6)).toBe(999);
  });

  it('the cheapest plan is marked: Free for a small card used once, Premium+ for large monthly cards', () => {
    const once = comparisonRows({ months: 1, cycle: 'monthly', promoActive: false, loyaltyMonths: 0 });
    expect(once[0]!.cheapest).toEqual(['free']);
    const heavy = comparisonRows({ months: 6, cycle: 'monthly', promoActive: false, loyaltyMonths: 0 });
    expect(heavy.at(-1)!.cheapest).toEqual(['premium+']);
    for (const row of heavy) expect(row.totals[row.cheapest[0]!]).toBe(Math.min(...Object.values(row.totals)));
  });
});
