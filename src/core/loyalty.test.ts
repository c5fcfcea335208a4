import { describe, expect, it } from 'vitest';
import { discountedPriceCents, loyaltyDiscountCents, loyaltyDiscountPpm, planPaymentCents } from './loyalty';

describe('loyalty discount: month 1 none, +10% per consecutive month, capped at 50%', () => {
  it.each([[0, 0], [1, 0], [2, 100_000], [3, 200_000], [4, 300_000], [5, 400_000], [6, 500_000], [7, 500_000], [60, 500_000]])(
    'month %i → %i ppm',
    (months, ppm) => {
      expect(loyaltyDiscountPpm(months)).toBe(ppm);
    },
  );
  it('discounts Premium $9.99 to the cent (discount rounded half up)', () => {
    expect([1, 2, 3, 4, 5, 6].map((m) => discountedPriceCents(999, m))).toEqual([999, 899, 799, 699, 599, 499]);
    expect(loyaltyDiscountCents(999, 2)).toBe(100); // 99.9 → 100
    expect(loyaltyDiscountCents(999, 6)).toBe(500); // 499.5 → 500
  });
  it('discounts Premium+ $199.99 yearly', () => {
    expect(discountedPriceCents(19_999, 3)).toBe(15_999); // 3 999.8 → 4 000 off
  });
  it('refuses a negative or fractional month count', () => {
    expect(() => loyaltyDiscountPpm(-1)).toThrow(RangeError);
    expect(() => loyaltyDiscountPpm(1.5)).toThrow(RangeError);
  });
});

describe('a payment: the discount is on the current plan\'s price only (decision 159)', () => {
  it('a renewal of the current plan gets its month\'s discount', () => {
    expect(planPaymentCents({ plan: 'premium', currentPlan: 'premium', priceCents: 999, loyaltyMonth: 3 })).toEqual({ discountPpm: 200_000, amountCents: 799 });
  });
  it('a payment for another plan (an upgrade) pays its list price, whatever the month', () => {
    expect(planPaymentCents({ plan: 'premium+', currentPlan: 'premium', priceCents: 19_999, loyaltyMonth: 6 })).toEqual({ discountPpm: 0, amountCents: 19_999 });
    expect(planPaymentCents({ plan: 'premium', currentPlan: 'free', priceCents: 999, loyaltyMonth: 1 })).toEqual({ discountPpm: 0, amountCents: 999 });
  });
});
