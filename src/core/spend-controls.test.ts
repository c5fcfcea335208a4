import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MS_PER_DAY } from './dates';
import {
  DEFAULT_CONTROLS,
  merchantLockAfterApproval,
  SPEND_CATEGORIES,
  SPEND_CATEGORY_IDS,
  type SpendCategory,
  type SpendControls,
  type SpendHistory,
  type SpentPurchase,
} from './spend-controls';
import { authorizeSpend, type SpendFacts } from './spend-controls-authorize';
import { spendControlsInput, validateSpendControls } from './spend-controls-validation';
import { availableSpend, availableSpendText, spendHistoryStart, spentInWindows, TRAILING_WINDOW_MS } from './spend-windows';

const NOW = new Date('2026-06-15T12:00:00Z');
const ago = (ms: number) => new Date(NOW.getTime() - ms);
const controls = (over: Partial<SpendControls>): SpendControls => ({ ...DEFAULT_CONTROLS, ...over });
const history = (purchases: SpentPurchase[], olderCents = 0): SpendHistory => ({
  purchases,
  lifetimeSpentCents: olderCents + purchases.reduce((sum, p) => sum + p.amountCents, 0),
});
const buy = (over: Partial<SpendFacts> & { amountCents?: number; merchant?: string; category?: SpendCategory }) =>
  authorizeSpend({
    controls: over.controls ?? DEFAULT_CONTROLS,
    history: over.history ?? history([]),
    purchase: { amountCents: over.amountCents ?? 100, merchant: over.merchant ?? 'Corner Shop', category: over.category ?? 'groceries' },
    now: over.now ?? NOW,
  });

describe('trailing windows', () => {
  it.each([
    ['day', 'perDayCents', 'day', TRAILING_WINDOW_MS.day],
    ['30 days', 'per30DaysCents', '30_days', 30 * MS_PER_DAY],
    ['365 days', 'perYearCents', 'year', 365 * MS_PER_DAY],
  ] as const)('a purchase exactly %s old has left the window; one a millisecond younger has not', (_name, field, window, length) => {
    const limited = controls({ [field]: 1_000 });
    const atEdge = history([{ amountCents: 600, at: ago(length) }]);
    const inside = history([{ amountCents: 600, at: ago(length - 1) }]);
    expect(availableSpend(limited, atEdge, NOW)[field]).toBe(1_000);
    expect(availableSpend(limited, inside, NOW)[field]).toBe(400);
    expect(buy({ controls: limited, history: atEdge, amountCents: 1_000 })).toEqual({ ok: true });
    expect(buy({ controls: limited, history: inside, amountCents: 401 })).toMatchObject({ ok: false, reason: 'spend_limit', window, leftCents: 400 });
    expect(buy({ controls: limited, history: inside, amountCents: 400 })).toEqual({ ok: true });
  });
  it('the history the server loads starts 365 days back, exclusive', () => {
    expect(spendHistoryStart(NOW)).toEqual(ago(365 * MS_PER_DAY));
  });
  it('a purchase stamped a little after now counts in every window', () => {
    expect(spentInWindows(history([{ amountCents: 500, at: new Date(NOW.getTime() + 1_000) }]), NOW)).toEqual({ day: 500, '30_days': 500, year: 500, lifetime: 500 });
  });
  it('the lifetime total counts purchases older than a year, which the loaded list does not hold', () => {
    const spent = history([{ amountCents: 300, at: ago(2 * MS_PER_DAY) }], 9_000);
    expect(availableSpend(controls({ lifetimeCents: 10_000, perYearCents: 5_000 }), spent, NOW)).toMatchObject({ lifetimeCents: 700, perYearCents: 4_700, largestPurchaseCents: 700 });
  });
  it('refuses a lifetime total below the loaded purchases: the two reads disagree', () => {
    expect(() => availableSpend(DEFAULT_CONTROLS, { purchases: [{ amountCents: 500, at: NOW }], lifetimeSpentCents: 499 }, NOW)).toThrow(RangeError);
  });
});

describe('limits together', () => {
  const spent = history([
    { amountCents: 2_000, at: ago(2 * 3_600_000) },
    { amountCents: 25_000, at: ago(10 * MS_PER_DAY) },
  ]);
  const limited = controls({ perTransactionCents: 5_000, perDayCents: 10_000, per30DaysCents: 30_000, lifetimeCents: 100_000 });
  it('left in each configured window, null where unset, and the largest purchase is the least of them', () => {
    expect(availableSpend(limited, spent, NOW)).toEqual({
      perTransactionCents: 5_000,
      perDayCents: 8_000,
      per30DaysCents: 3_000,
      perYearCents: null,
      lifetimeCents: 73_000,
      largestPurchaseCents: 3_000,
    });
  });
  it('the tightest window decides and is the one named', () => {
    const decision = buy({ controls: limited, history: spent, amountCents: 4_000 });
    expect(decision).toEqual({ ok: false, reason: 'spend_limit', window: '30_days', leftCents: 3_000, message: "Declined: this card's 30-day limit leaves $30.00." });
    expect(buy({ controls: limited, history: spent, amountCents: 3_000 })).toEqual({ ok: true });
  });
  it('the per-purchase limit names itself when it is the tightest', () => {
    expect(buy({ controls: controls({ perTransactionCents: 2_500, perDayCents: 10_000 }), amountCents: 2_501 })).toEqual({
      ok: false,
      reason: 'spend_limit',
      window: 'transaction',
      leftCents: 2_500,
      message: 'Declined: this card allows at most $25.00 a purchase.',
    });
  });
  it('on a tie the longer window is named: it is still in the way once the shorter refills', () => {
    const tie = controls({ perDayCents: 1_000, perYearCents: 1_000 });
    expect(buy({ controls: tie, amountCents: 1_001 })).toMatchObject({ window: 'year', leftCents: 1_000 });
  });
  it('the daily message says what is left today', () => {
    const spentToday = history([{ amountCents: 590, at: ago(60_000) }]);
    expect(buy({ controls: controls({ perDayCents: 1_000 }), history: spentToday, amountCents: 500 })).toMatchObject({ message: "Declined: this card's daily limit leaves $4.10 today." });
  });
  it('a limit tightened below what was spent leaves 0 and declines; what was spent stays spent', () => {
    const spentToday = history([{ amountCents: 7_000, at: ago(3_600_000) }]);
    const tightened = controls({ perDayCents: 5_000 });
    expect(availableSpend(tightened, spentToday, NOW).perDayCents).toBe(0);
    expect(buy({ controls: tightened, history: spentToday, amountCents: 1 })).toMatchObject({ ok: false, window: 'day', leftCents: 0, message: "Declined: this card's daily limit leaves $0.00 today." });
    // Once the spending has aged out of the window, the tightened limit is all that applies.
    const tomorrow = new Date(NOW.getTime() + MS_PER_DAY);
    expect(availableSpend(tightened, spentToday, tomorrow).perDayCents).toBe(5_000);
  });
  it('the sentence for the UI lists what is left, the per-purchase cap last', () => {
    expect(availableSpendText(availableSpend(limited, spent, NOW))).toBe('$80.00 left today, $30.00 left this 30 days, $730.00 left in total, at most $50.00 a purchase');
    expect(availableSpendText(availableSpend(controls({ perTransactionCents: 5_000 }), spent, NOW))).toBe('At most $50.00 a purchase');
    expect(availableSpendText(availableSpend(DEFAULT_CONTROLS, spent, NOW))).toBeNull();
  });
});

describe('merchant lock', () => {
  it('a named lock takes its merchant however the name is spaced or cased, and declines any other', () => {
    const locked = controls({ merchantLock: { mode: 'named', merchant: 'Netflix' } });
    expect(buy({ controls: locked, merchant: '  NETFLIX ' })).toEqual({ ok: true });
    expect(buy({ controls: locked, merchant: 'Hulu' })).toEqual({ ok: false, reason: 'merchant_locked', lockedTo: 'Netflix', message: 'Declined: this card is locked to Netflix.' });
  });
  it('"first" takes any merchant and, once approved, locks to it', () => {
    const first = controls({ merchantLock: { mode: 'first' } });
    expect(buy({ controls: first, merchant: 'Hulu' })).toEqual({ ok: true });
    const after = merchantLockAfterApproval(first.merchantLock, ' Hulu ');
    expect(after).toEqual({ mode: 'named', merchant: 'Hulu' });
    expect(buy({ controls: controls({ merchantLock: after }), merchant: 'Netflix' })).toMatchObject({ reason: 'merchant_locked', lockedTo: 'Hulu' });
  });
  it('an approval leaves an off or named lock as it was', () => {
    const named = { mode: 'named', merchant: 'Netflix' } as const;
    expect(merchantLockAfterApproval(named, 'Netflix')).toBe(named);
    expect(merchantLockAfterApproval(DEFAULT_CONTROLS.merchantLock, 'Hulu')).toEqual({ mode: 'off' });
  });
});

describe('categories', () => {
  it('a blocked category is declined with its label; others pass', () => {
    const blocking = controls({ categories: { mode: 'block', list: ['gambling', 'cash_like'] } });
    expect(buy({ controls: blocking, category: 'cash_like' })).toEqual({
      ok: false,
      reason: 'category_blocked',
      category: 'cash_like',
      message: 'Declined: this card does not allow Cash-like (money orders, crypto, gift cards) purchases.',
    });
    expect(buy({ controls: blocking, category: 'travel' })).toEqual({ ok: true });
  });
  it('allow-only passes its categories and declines the rest', () => {
    const only = controls({ categories: { mode: 'allow_only', list: ['groceries'] } });
    expect(buy({ controls: only, category: 'groceries' })).toEqual({ ok: true });
    expect(buy({ controls: only, category: 'restaurants' })).toMatchObject({ reason: 'category_blocked', category: 'restaurants' });
  });
  it('where the card may be used is checked before how much: the lock, then the category, then the limits', () => {
    const all = controls({ perDayCents: 1, merchantLock: { mode: 'named', merchant: 'Netflix' }, categories: { mode: 'block', list: ['gambling'] } });
    expect(buy({ controls: all, merchant: 'Casino', category: 'gambling', amountCents: 500 })).toMatchObject({ reason: 'merchant_locked' });
    expect(buy({ controls: all, merchant: 'Netflix', category: 'gambling', amountCents: 500 })).toMatchObject({ reason: 'category_blocked' });
    expect(buy({ controls: all, merchant: 'Netflix', category: 'digital_goods', amountCents: 500 })).toMatchObject({ reason: 'spend_limit' });
  });
  it('lists every category with a label for people', () => {
    expect(SPEND_CATEGORIES.map((c) => c.id)).toEqual(['groceries', 'restaurants', 'travel', 'digital_goods', 'gambling', 'cash_like', 'other']);
    expect(SPEND_CATEGORIES.find((c) => c.id === 'cash_like')?.label).toBe('Cash-like (money orders, crypto, gift cards)');
  });
});

describe('validateSpendControls', () => {
  it('nothing set is the default controls, which approve any purchase', () => {
    expect(validateSpendControls({})).toEqual({ ok: true, controls: DEFAULT_CONTROLS });
    expect(buy({ amountCents: 5_000_000, category: 'gambling' })).toEqual({ ok: true });
  });
  it('refuses a limit that is not a positive whole number of cents, naming the limit', () => {
    const result = validateSpendControls({ perDayCents: 0, per30DaysCents: 12.5, lifetimeCents: -100, perYearCents: Number.MAX_SAFE_INTEGER + 1 });
    expect(result).toEqual({
      ok: false,
      errors: [
        { field: 'perDayCents', message: 'The daily limit must be at least $0.01, in whole cents.' },
        { field: 'per30DaysCents', message: 'The 30-day limit must be at least $0.01, in whole cents.' },
        { field: 'perYearCents', message: 'The yearly limit must be at least $0.01, in whole cents.' },
        { field: 'lifetimeCents', message: 'The lifetime limit must be at least $0.01, in whole cents.' },
      ],
    });
  });
  it('refuses blocking some categories and allowing only some at once', () => {
    expect(validateSpendControls({ blockCategories: ['gambling'], allowOnlyCategories: ['groceries'] })).toEqual({
      ok: false,
      errors: [{ field: 'allowOnlyCategories', message: 'Block some categories or allow only some, not both.' }],
    });
  });
  it('refuses an unknown category, blocking every category, and a named lock without a merchant', () => {
    expect(validateSpendControls({ blockCategories: ['casino'] })).toMatchObject({ errors: [{ field: 'blockCategories', message: '"casino" is not a merchant category.' }] });
    expect(validateSpendControls({ blockCategories: [...SPEND_CATEGORY_IDS] })).toMatchObject({
      errors: [{ message: 'Blocking every category would decline every purchase. Freeze the card instead.' }],
    });
    expect(validateSpendControls({ merchantLock: { mode: 'named', merchant: '   ' } })).toMatchObject({ errors: [{ field: 'merchantLock', message: 'Enter the merchant this card is locked to.' }] });
    expect(validateSpendControls({ merchantLock: { mode: 'named', merchant: 'x'.repeat(81) } })).toMatchObject({ errors: [{ message: 'Merchant names can be at most 80 characters.' }] });
  });
  it('stores categories once each in the list order, and allowing every category as no rule', () => {
    expect(validateSpendControls({ allowOnlyCategories: ['travel', 'groceries', 'travel'] })).toMatchObject({ controls: { categories: { mode: 'allow_only', list: ['groceries', 'travel'] } } });
    expect(validateSpendControls({ allowOnlyCategories: [...SPEND_CATEGORY_IDS] })).toMatchObject({ controls: { categories: { mode: 'any' } } });
    expect(validateSpendControls({ merchantLock: { mode: 'named', merchant: ' Netflix ' } })).toMatchObject({ controls: { merchantLock: { mode: 'named', merchant: 'Netflix' } } });
  });
  it('valid stored controls come back unchanged through the form input', () => {
    const stored = controls({ perDayCents: 5_000, lifetimeCents: 90_000, merchantLock: { mode: 'first' }, categories: { mode: 'block', list: ['gambling'] } });
    expect(validateSpendControls(spendControlsInput(stored))).toEqual({ ok: true, controls: stored });
  });
});

// Controls with each limit present or not, up to amounts a few purchases can reach.
const limitArb = fc.option(fc.integer({ min: 1, max: 20_000 }), { nil: null });
const limitsArb = fc.record({ perTransactionCents: limitArb, perDayCents: limitArb, per30DaysCents: limitArb, perYearCents: limitArb, lifetimeCents: limitArb });
// Steps between purchases, often landing exactly on a window's edge.
const stepArb = fc.oneof(fc.constantFrom(0, 1, MS_PER_DAY - 1, MS_PER_DAY, 30 * MS_PER_DAY, 365 * MS_PER_DAY), fc.integer({ min: 0, max: 40 * MS_PER_DAY }));

describe('properties (fast-check)', () => {
  it('approved purchases never take any window past its limit', () => {
    fc.assert(
      fc.property(limitsArb, fc.array(fc.tuple(stepArb, fc.integer({ min: 1, max: 8_000 })), { maxLength: 40 }), (limits, steps) => {
        const card = controls(limits);
        const approved: SpentPurchase[] = [];
        let now = NOW.getTime();
        for (const [step, amountCents] of steps) {
          now += step;
          const at = new Date(now);
          if (!buy({ controls: card, history: history(approved), amountCents, now: at }).ok) continue;
          approved.push({ amountCents, at });
          if (limits.perTransactionCents !== null) expect(amountCents).toBeLessThanOrEqual(limits.perTransactionCents);
          const spent = spentInWindows(history(approved), at);
          if (limits.perDayCents !== null) expect(spent.day).toBeLessThanOrEqual(limits.perDayCents);
          if (limits.per30DaysCents !== null) expect(spent['30_days']).toBeLessThanOrEqual(limits.per30DaysCents);
          if (limits.perYearCents !== null) expect(spent.year).toBeLessThanOrEqual(limits.perYearCents);
          if (limits.lifetimeCents !== null) expect(spent.lifetime).toBeLessThanOrEqual(limits.lifetimeCents);
        }
      }),
    );
  });

  const historyArb = fc.record({
    purchases: fc.array(fc.record({ amountCents: fc.integer({ min: 1, max: 30_000 }), at: fc.integer({ min: -366 * MS_PER_DAY, max: 60_000 }).map((offset) => new Date(NOW.getTime() + offset)) }), { maxLength: 12 }),
    olderCents: fc.integer({ min: 0, max: 50_000 }),
  }).map(({ purchases, olderCents }) => history(purchases, olderCents));

  it('what is left is never negative, and never more than the limit', () => {
    fc.assert(
      fc.property(limitsArb, historyArb, (limits, spent) => {
        const available = availableSpend(controls(limits), spent, NOW);
        for (const field of ['perTransactionCents', 'perDayCents', 'per30DaysCents', 'perYearCents', 'lifetimeCents'] as const) {
          const limit = limits[field];
          if (limit === null) expect(available[field]).toBeNull();
          else {
            expect(available[field]).toBeGreaterThanOrEqual(0);
            expect(available[field]).toBeLessThanOrEqual(limit);
          }
        }
      }),
    );
  });

  it('when merchant and category pass, a purchase is approved exactly when it fits what every window leaves', () => {
    fc.assert(
      fc.property(limitsArb, historyArb, fc.integer({ min: 1, max: 25_000 }), (limits, spent, amountCents) => {
        const card = controls(limits);
        const { largestPurchaseCents } = availableSpend(card, spent, NOW);
        const decision = buy({ controls: card, history: spent, amountCents });
        expect(decision.ok).toBe(largestPurchaseCents === null || amountCents <= largestPurchaseCents);
        if (!decision.ok) expect(decision).toMatchObject({ reason: 'spend_limit', leftCents: largestPurchaseCents });
      }),
    );
  });
});
