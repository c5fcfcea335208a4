import { describe, expect, it } from 'vitest';
import { discountedPriceCents, loyaltyDiscountCents, loyaltyDiscountPpm } from './loyalty';

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
