import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { journalSumCents } from './money-plan';
import { planPurchase, type PurchaseFacts } from './plan-purchase';

const NOW = new Date('2026-06-15T12:00:00Z');
const card: PurchaseFacts['card'] = { id: 'card-1', type: 'general', status: 'active', frozen: false, validUntil: new Date('2027-06-15T12:00:00Z'), remainingAmountCents: 10_000 };

describe('planPurchase', () => {
  it('approves with a balanced journal card → merchants and a debit valid now', () => {
    const plan = planPurchase({ card, amountCents: 1_234, merchant: 'Coffee', now: NOW });
    expect(plan).toEqual({
      ok: true,
      debit: { cardId: 'card-1', amountCents: 1_234, statusAtZero: null, allowedStatuses: ['active'], validAt: NOW },
      journal: { kind: 'purchase', memo: 'purchase at Coffee', lines: [{ account: { card: 'card-1' }, amountCents: -1_234 }, { account: { system: 'merchants' }, amountCents: 1_234 }] },
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
