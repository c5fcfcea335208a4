import { describe, expect, it } from 'vitest';
import { checkMonthlyLimit, combinesLeftText, monthStartUtc, nextMonthStartUtc } from './limits';

describe('monthly limit window is the UTC calendar month', () => {
  it('starts at 00:00 UTC on the 1st', () => {
    expect(monthStartUtc(new Date('2025-03-31T23:59:59Z')).toISOString()).toBe('2025-03-01T00:00:00.000Z');
    expect(monthStartUtc(new Date('2025-04-01T00:00:00Z')).toISOString()).toBe('2025-04-01T00:00:00.000Z');
    expect(nextMonthStartUtc(new Date('2025-12-15T10:00:00Z')).toISOString()).toBe('2026-01-01T00:00:00.000Z');
  });
});

describe('checkMonthlyLimit: Free 3, Premium 10, Premium+ unlimited', () => {
  it('allows the 3rd Free combine and refuses the 4th with the DECISIONS message', () => {
    expect(checkMonthlyLimit({ plan: 'free', completedThisMonth: 2 })).toEqual({ ok: true, limit: 3, remaining: 1 });
    expect(checkMonthlyLimit({ plan: 'free', completedThisMonth: 3 })).toEqual({
      ok: false, limit: 3, remaining: 0,
      message: 'You have reached your monthly limit of 3 combines on the Free plan. Upgrade for more.',
    });
  });
  it('refuses the 11th Premium combine', () => {
    expect(checkMonthlyLimit({ plan: 'premium', completedThisMonth: 10 })).toMatchObject({
      ok: false,
      message: 'You have reached your monthly limit of 10 combines on the Premium plan. Upgrade for more.',
    });
    expect(checkMonthlyLimit({ plan: 'premium', completedThisMonth: 9 }).ok).toBe(true);
  });
  it('never limits Premium+', () => {
    expect(checkMonthlyLimit({ plan: 'premium+', completedThisMonth: 10_000 })).toEqual({ ok: true, limit: null, remaining: null });
  });
  it('refuses a nonsense count', () => {
    expect(() => checkMonthlyLimit({ plan: 'free', completedThisMonth: -1 })).toThrow(RangeError);
  });
});

describe('combines left this month', () => {
  it('reads "n of m combines left this month", and nothing on an unlimited plan', () => {
    expect(combinesLeftText({ limit: 3, remaining: 2 })).toBe('2 of 3 combines left this month');
    expect(combinesLeftText({ limit: 3, remaining: 0 })).toBe('0 of 3 combines left this month');
    expect(combinesLeftText({ limit: null, remaining: null })).toBeNull();
  });
});
