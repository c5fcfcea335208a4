import { describe, expect, it } from 'vitest';
import {
  isPromoActive,
  PROMO,
  promoAppliesToCombine,
  promoDaysRemaining,
  promoEndFrom,
  qualifiesForPromo,
  remainingSpots,
} from './promo';

const now = new Date('2025-06-15T12:00:00Z');

describe('launch promo constants', () => {
  it('is promo_50off_001: 100 users, $1,000.00 minimum, 12 months', () => {
    expect(PROMO).toEqual({ id: 'promo_50off_001', limitCount: 100, minTotalCents: 100_000, durationMonths: 12 });
  });
});

describe('isPromoActive: running until its end', () => {
  it('is inactive without a promo', () => {
    expect(isPromoActive({ promoEnd: null, now })).toBe(false);
  });
  it('is active before the end and inactive from the end on', () => {
    expect(isPromoActive({ promoEnd: new Date('2025-06-15T12:00:01Z'), now })).toBe(true);
    expect(isPromoActive({ promoEnd: new Date('2025-06-15T12:00:00Z'), now })).toBe(false);
    expect(isPromoActive({ promoEnd: new Date('2024-01-01T00:00:00Z'), now })).toBe(false);
  });
});

describe('qualifiesForPromo: requested total >= $1,000.00, spot left, not held before', () => {
  it('qualifies at exactly $1,000.00', () => {
    expect(qualifiesForPromo({ totalCents: 100_000, hasPromo: false, remainingCount: 1 })).toBe(true);
  });
  it('does not qualify one cent below', () => {
    expect(qualifiesForPromo({ totalCents: 99_999, hasPromo: false, remainingCount: 100 })).toBe(false);
  });
  it('does not qualify when all spots are claimed', () => {
    expect(qualifiesForPromo({ totalCents: 500_000, hasPromo: false, remainingCount: 0 })).toBe(false);
  });
  it('never qualifies a user twice, even after the promo ran out', () => {
    expect(qualifiesForPromo({ totalCents: 500_000, hasPromo: true, remainingCount: 50 })).toBe(false);
  });
});

describe('promoAppliesToCombine: the qualifying combine already gets the discount', () => {
  it('applies to the qualifying combine itself', () => {
    expect(promoAppliesToCombine({ promoEnd: null, hasPromo: false, now, totalCents: 100_000, remainingCount: 3 })).toBe(true);
  });
  it('applies to any combine while the promo runs', () => {
    expect(promoAppliesToCombine({ promoEnd: new Date('2026-01-01Z'), hasPromo: true, now, totalCents: 500, remainingCount: 0 })).toBe(true);
  });
  it('does not apply after it ended', () => {
    expect(promoAppliesToCombine({ promoEnd: new Date('2025-01-01Z'), hasPromo: true, now, totalCents: 500_000, remainingCount: 10 })).toBe(false);
  });
});

describe('promo dates', () => {
  it('ends 12 calendar months after the claim', () => {
    expect(promoEndFrom(new Date('2025-03-10T08:30:00Z')).toISOString()).toBe('2026-03-10T08:30:00.000Z');
    expect(promoEndFrom(new Date('2024-02-29T00:00:00Z')).toISOString()).toBe('2025-02-28T00:00:00.000Z');
  });
  it('counts days remaining, a started day counting as one, never negative', () => {
    expect(promoDaysRemaining(null, now)).toBe(0);
    expect(promoDaysRemaining(new Date('2025-06-25T12:00:00Z'), now)).toBe(10);
    expect(promoDaysRemaining(new Date('2025-06-25T12:00:01Z'), now)).toBe(11);
    expect(promoDaysRemaining(new Date('2025-06-01T00:00:00Z'), now)).toBe(0);
  });
});

describe('remainingSpots: 100 minus claimed, at least 0', () => {
  it.each([[0, 100], [1, 99], [99, 1], [100, 0], [150, 0]])('claimed %i → %i left', (claimed, left) => {
    expect(remainingSpots(claimed)).toBe(left);
  });
  it('refuses a nonsense counter', () => {
    expect(() => remainingSpots(-1)).toThrow(RangeError);
    expect(() => remainingSpots(1.5)).toThrow(RangeError);
  });
});
