import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { applyCombineCompletion, BOOST_EARNED_MESSAGE, BOOST_MESSAGES, BOOSTS, canUseBoost } from './boosts';

describe('boost limits (docs/rules.md#boosts)', () => {
  it('holds at most 3, uses at most 3 in a lifetime, earns one per 3 combines', () => {
    expect(BOOSTS).toEqual({ maxHeld: 3, maxLifetimeUsed: 3, combinesPerBoost: 3 });
  });
});

describe('canUseBoost', () => {
  it('allows a boost when one is held and fewer than 3 were used', () => {
    expect(canUseBoost({ boostsAvailable: 1, boostsUsed: 2 })).toEqual({ ok: true });
  });
  it('warns with the spec text when none is held', () => {
    expect(canUseBoost({ boostsAvailable: 0, boostsUsed: 0 })).toEqual({
      ok: false,
      reason: 'none_available',
      message: 'You have no boosts available. Earn boosts by completing more combines.',
    });
  });
  it('refuses once 3 have been used in a lifetime, even with boosts held', () => {
    expect(canUseBoost({ boostsAvailable: 2, boostsUsed: 3 })).toEqual({
      ok: false, reason: 'lifetime_limit', message: BOOST_MESSAGES.lifetimeLimit,
    });
  });
});

describe('applyCombineCompletion: combineTotal += 1; earn when < 3 held and total % 3 == 0', () => {
  it('earns a boost on the 3rd, 6th and 9th combine', () => {
    let s = { combineTotal: 0, boostsAvailable: 0, boostsUsed: 0 };
    const earnedAt: number[] = [];
    for (let i = 0; i < 9; i += 1) {
      const r = applyCombineCompletion({ ...s, usedBoost: false });
      if (r.earnedBoost) earnedAt.push(r.combineTotal);
      s = { combineTotal: r.combineTotal, boostsAvailable: r.boostsAvailable, boostsUsed: r.boostsUsed };
    }
    expect(earnedAt).toEqual([3, 6, 9]);
    expect(s).toEqual({ combineTotal: 9, boostsAvailable: 3, boostsUsed: 0 });
  });
  it('does not earn a 4th held boost', () => {
    expect(applyCombineCompletion({ combineTotal: 11, boostsAvailable: 3, boostsUsed: 0, usedBoost: false }))
      .toEqual({ combineTotal: 12, boostsAvailable: 3, boostsUsed: 0, earnedBoost: false });
  });
  it('counts the boost spent on this combine before deciding: 3 held, one used, earns back to 3', () => {
    expect(applyCombineCompletion({ combineTotal: 11, boostsAvailable: 3, boostsUsed: 0, usedBoost: true }))
      .toEqual({ combineTotal: 12, boostsAvailable: 3, boostsUsed: 1, earnedBoost: true });
  });
  it('spends a boost without earning off the multiple of 3', () => {
    expect(applyCombineCompletion({ combineTotal: 3, boostsAvailable: 1, boostsUsed: 0, usedBoost: true }))
      .toEqual({ combineTotal: 4, boostsAvailable: 0, boostsUsed: 1, earnedBoost: false });
  });
  it('throws when a boost is used that could not be used', () => {
    expect(() => applyCombineCompletion({ combineTotal: 1, boostsAvailable: 0, boostsUsed: 0, usedBoost: true })).toThrow();
    expect(() => applyCombineCompletion({ combineTotal: 1, boostsAvailable: 1, boostsUsed: 3, usedBoost: true })).toThrow();
  });
  it('never holds more than 3, never uses more than 3, counts every combine', () => {
    fc.assert(fc.property(fc.array(fc.boolean(), { maxLength: 60 }), (wantsBoost) => {
      let s = { combineTotal: 0, boostsAvailable: 0, boostsUsed: 0 };
      for (const wants of wantsBoost) {
        const usedBoost = wants && canUseBoost(s).ok;
        const r = applyCombineCompletion({ ...s, usedBoost });
        s = { combineTotal: r.combineTotal, boostsAvailable: r.boostsAvailable, boostsUsed: r.boostsUsed };
        expect(s.boostsAvailable).toBeLessThanOrEqual(3);
        expect(s.boostsAvailable).toBeGreaterThanOrEqual(0);
        expect(s.boostsUsed).toBeLessThanOrEqual(3);
      }
      expect(s.combineTotal).toBe(wantsBoost.length);
    }));
  });
  it('has a friendly earned-boost toast that states the rule', () => {
    expect(BOOST_EARNED_MESSAGE).toMatch(/Boost/);
    expect(BOOST_EARNED_MESSAGE).toMatch(/every 3 combines/);
    expect(BOOST_EARNED_MESSAGE).toMatch(/up to 3 held/);
    expect(BOOST_EARNED_MESSAGE).toMatch(/waive/);
  });
});
