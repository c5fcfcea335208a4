import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { journalSumCents } from './money-plan';
import { planPurchase, type PurchaseFacts } from './plan-purchase';
import { DEFAULT_CONTROLS, type SpendControls } from './spend-controls';

const NOW = new Date('2026-06-15T12:00:00Z');
const card: PurchaseFacts['card'] = { id: 'card-1', type: 'general', status: 'active', frozen: false, validUntil: new Date('2027-06-15T12:00:00Z'), remainingAmountCents: 10_000 };

describe('planPurchase', () => {
  it('approves with a balanced journal card → merchants and a debit valid now', () => {
    const plan = planPurchase({ card, amountCents: 1_234, merchant: 'Coffee', now: NOW });
    expect(plan).toEqual({
      ok: true,
      debit: { cardId: 'card-1', amountCents: 1_234, statusAtZero: null, allowedStatuses: ['active'], validAt: NOW },
      journal: { kind: 'purchase', memo: 'purchase at Coffee', lines: [{ account: { card: 'card-1' }, amountCents: -1_234 }, { account: { system: 'merchants' }, amountCents: 1_234 }] },
      lockAfter: null,
    });
  });
  it('a single-use card closes when the purchase empties it', () => {
    const plan = planPurchase({ card: { ...card, type: 'single-use' }, amountCents: 10_000, merchant: 'Shop', now: NOW });
    expect(plan.ok && plan.debit.statusAtZero).toBe('closed');
  });
  it('declines closed before expired before frozen before short', () => {
    const decline = (over: Partial<PurchaseFacts['card']>, amountCents = 100) => {
      const plan = planPurchase({ card: { ...card, ...over }, amountCents, merchant: 'x', now: NOW });
      return plan.ok ? null : plan.decline;
    };
    expect(decline({ status: 'cashed_out', frozen: true })).toBe('closed');
    expect(decline({ validUntil: NOW, frozen: true })).toBe('expired');
    expect(decline({ status: 'expired' })).toBe('expired');
    expect(decline({ frozen: true }, 1_000_000)).toBe('frozen');
    expect(decline({}, 10_001)).toBe('insufficient_balance');
  });
  it('for any card and amount (fast-check): an approved plan balances and leaves the card at zero or above', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5_000_000 }), fc.integer({ min: 0, max: 5_000_000 }), fc.boolean(), fc.integer({ min: -100, max: 100 }), (amountCents, remaining, frozen, days) => {
        const plan = planPurchase({ card: { ...card, remainingAmountCents: remaining, frozen, validUntil: new Date(NOW.getTime() + days * 86_400_000) }, amountCents, merchant: 'x', now: NOW });
        if (!plan.ok) return;
        expect(journalSumCents(plan.journal.lines)).toBe(0);
        expect(remaining - plan.debit.amountCents).toBeGreaterThanOrEqual(0);
        expect(frozen).toBe(false);
        expect(days).toBeGreaterThan(0);
      }),
    );
  });
});

describe('planPurchase with spend controls (docs/rules.md#card-controls)', () => {
  const controls = (over: Partial<SpendControls>): SpendControls => ({ ...DEFAULT_CONTROLS, ...over });
  const HOUR = 3_600_000;
  const history = { purchases: [{ amountCents: 6_000, at: new Date(NOW.getTime() - HOUR) }], lifetimeSpentCents: 9_000 };
  const plan = (over: Partial<PurchaseFacts>) => planPurchase({ card, amountCents: 5_000, merchant: 'Shop', now: NOW, history, ...over });

  it('checks the card itself first: a frozen card is declined frozen, not for a limit it also breaks', () => {
    expect(plan({ card: { ...card, frozen: true }, controls: controls({ perDayCents: 100 }) })).toEqual({ ok: false, decline: 'frozen' });
    expect(plan({ card: { ...card, status: 'closed' }, controls: controls({ merchantLock: { mode: 'named', merchant: 'Other' } }) })).toMatchObject({ decline: 'closed' });
  });
  it('checks the controls before the balance: a card short of money and over its limit says the limit', () => {
    const declined = plan({ card: { ...card, remainingAmountCents: 10 }, controls: controls({ perDayCents: 10_000 }) });
    expect(declined).toEqual({ ok: false, decline: 'spend_limit', message: "Declined: this card's daily limit leaves $40.00 today.", detail: { window: 'day', leftCents: 4_000 } });
  });
  it('checks the lock before the category before the limits, and says what it was measured against', () => {
    const all = controls({ merchantLock: { mode: 'named', merchant: 'Grocer' }, categories: { mode: 'block', list: ['travel'] }, perTransactionCents: 1 });
    expect(plan({ controls: all, category: 'travel' })).toMatchObject({ decline: 'merchant_locked', detail: { lockedTo: 'Grocer' } });
    expect(plan({ controls: all, category: 'travel', merchant: ' grocer ' })).toMatchObject({ decline: 'category_blocked', detail: { category: 'travel' } });
    expect(plan({ controls: all, category: 'groceries', merchant: 'GROCER' })).toMatchObject({ decline: 'spend_limit', detail: { window: 'transaction', leftCents: 1 } });
  });
  it('a purchase naming no category is decided as other', () => {
    expect(plan({ controls: controls({ categories: { mode: 'allow_only', list: ['groceries'] } }) })).toMatchObject({ decline: 'category_blocked', detail: { category: 'other' } });
    expect(plan({ controls: controls({ categories: { mode: 'block', list: ['groceries'] } }) }).ok).toBe(true);
  });
  it("the windows end at the history's clock when it is given", () => {
    const dayLater = new Date(NOW.getTime() + 24 * HOUR);
    expect(plan({ controls: controls({ perDayCents: 10_000 }), historyNow: dayLater }).ok).toBe(true);
    expect(plan({ controls: controls({ perDayCents: 10_000 }), now: dayLater, historyNow: NOW }).ok).toBe(false);
  });
  it("an approval at a 'first' lock stores the lock to that merchant; any other lock stays", () => {
    const first = plan({ controls: controls({ merchantLock: { mode: 'first' } }), merchant: '  Corner Cafe ' });
    expect(first.ok && first.lockAfter).toEqual({ mode: 'named', merchant: 'Corner Cafe' });
    const named = plan({ controls: controls({ merchantLock: { mode: 'named', merchant: 'shop' } }) });
    expect(named.ok && named.lockAfter).toBeNull();
  });
  it('for any limits and history (fast-check): an approval never takes a window past its limit, nor the card below zero', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 20_000 }),
        fc.integer({ min: 1, max: 20_000 }),
        fc.array(fc.record({ amountCents: fc.integer({ min: 1, max: 5_000 }), hoursAgo: fc.integer({ min: 0, max: 50 }) }), { maxLength: 6 }),
        fc.integer({ min: 0, max: 20_000 }),
        (amountCents, perDayCents, spent, remainingAmountCents) => {
          const purchases = spent.map(({ amountCents: a, hoursAgo }) => ({ amountCents: a, at: new Date(NOW.getTime() - hoursAgo * HOUR) }));
          const lifetimeSpentCents = purchases.reduce((sum, p) => sum + p.amountCents, 0);
          const result = planPurchase({ card: { ...card, remainingAmountCents }, amountCents, merchant: 'x', now: NOW, controls: controls({ perDayCents }), history: { purchases, lifetimeSpentCents } });
          const spentToday = spent.filter((p) => p.hoursAgo < 24).reduce((sum, p) => sum + p.amountCents, 0);
          if (result.ok) {
            expect(spentToday + amountCents).toBeLessThanOrEqual(perDayCents);
            expect(amountCents).toBeLessThanOrEqual(remainingAmountCents);
          } else {
            expect(result.decline === 'spend_limit' ? spentToday + amountCents > perDayCents : amountCents > remainingAmountCents).toBe(true);
          }
        },
      ),
    );
  });
});
