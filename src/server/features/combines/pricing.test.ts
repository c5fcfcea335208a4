import { describe, expect, it } from 'vitest';
import { PROMO } from '../../../core/promo';
import { pricingFor, promoCounterMatters, type UserRow } from './pricing';

const now = new Date('2026-11-23T12:00:00Z');
const user = (overrides: Partial<UserRow> = {}) => ({ subscription: 'free', promo50offFirstYear: false, promoEnd: null, ...overrides }) as UserRow;
const qualifying = PROMO.minTotalCents;

describe('reading the launch-promo counter only when it can change the price', () => {
  it('matters for a user without the promo and a qualifying total', () => {
    expect(promoCounterMatters(user(), qualifying, now)).toBe(true);
  });

  it('does not matter below the qualifying total, for a user who has the promo, or while it runs', () => {
    expect(promoCounterMatters(user(), qualifying - 1, now)).toBe(false);
    expect(promoCounterMatters(user({ promo50offFirstYear: true }), qualifying, now)).toBe(false);
    expect(promoCounterMatters(user({ promo50offFirstYear: true, promoEnd: new Date('2027-06-01T00:00:00Z') }), qualifying, now)).toBe(false);
  });

  it('where it does not matter, any count prices the same as the 0 used instead of reading it', () => {
    const cases = [
      { u: user(), total: qualifying - 1 },
      { u: user({ promo50offFirstYear: true }), total: qualifying * 2 },
      { u: user({ subscription: 'premium', promo50offFirstYear: true, promoEnd: new Date('2027-06-01T00:00:00Z') }), total: qualifying },
    ];
    for (const { u, total } of cases) {
      expect(promoCounterMatters(u, total, now)).toBe(false);
      for (const remaining of [1, 37, 100]) expect(pricingFor(u, total, remaining, now)).toEqual(pricingFor(u, total, 0, now));
    }
    // Where it matters, it does change the price: the claim halves the product fee.
    expect(pricingFor(user(), qualifying, 1, now)).not.toEqual(pricingFor(user(), qualifying, 0, now));
  });
});
