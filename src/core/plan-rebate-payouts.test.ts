import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { journalSumCents } from './money-plan';
import { planPendingRebatePayouts, rebatePayment } from './plan-rebate-payouts';

const payTo = { method: 'paypal', destination: 'dest_pp' } as const;

describe('rebatePayment', () => {
  it('a rebate moves from rebates payable to payouts, to the preferred method (docs/rules.md#bnpl)', () => {
    expect(rebatePayment(975, payTo)).toEqual({
      method: 'paypal',
      destination: 'dest_pp',
      journal: {
        kind: 'rebate_payout',
        memo: 'BNPL rebate to paypal',
        lines: [
          { account: { system: 'rebatesPayable' }, amountCents: -975 },
          { account: { system: 'payouts' }, amountCents: 975 },
        ],
      },
    });
  });
  it('a zero rebate is settled without a journal; a negative or fractional one is a bug', () => {
    expect(rebatePayment(0, payTo)).toEqual({ ...payTo, journal: null });
    expect(() => rebatePayment(-1, payTo)).toThrow(RangeError);
    expect(() => rebatePayment(1.5, payTo)).toThrow(RangeError);
  });
});

describe('planPendingRebatePayouts', () => {
  it('without a payout destination nothing is paid: the rebates stay pending (decision 172)', () => {
    expect(planPendingRebatePayouts({ pending: [{ id: 'r1', amountCents: 500 }], payTo: null })).toEqual({ paid: [], effects: [], total: { count: 0, amountCents: 0 } });
  });
  it('pays every pending rebate in order; a zero one is settled and counted, with no payout', () => {
    const plan = planPendingRebatePayouts({ pending: [{ id: 'r1', amountCents: 500 }, { id: 'r0', amountCents: 0 }, { id: 'r2', amountCents: 250 }], payTo });
    expect(plan.paid.map((p) => [p.rebateId, p.amountCents, p.payment.journal !== null])).toEqual([['r1', 500, true], ['r0', 0, false], ['r2', 250, true]]);
    expect(plan.effects).toEqual([
      { kind: 'rebate_payout', rebateId: 'r1', method: 'paypal', amountCents: 500, destination: 'dest_pp' },
      { kind: 'rebate_payout', rebateId: 'r2', method: 'paypal', amountCents: 250, destination: 'dest_pp' },
    ]);
    expect(plan.total).toEqual({ count: 3, amountCents: 750 });
  });
  it('for any pending rebates (fast-check): each journal balances, and the payouts add up to the total paid', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 1_000_000 }), { maxLength: 20 }), (amounts) => {
        const plan = planPendingRebatePayouts({ pending: amounts.map((amountCents, i) => ({ id: `r${i}`, amountCents })), payTo });
        expect(plan.total.count).toBe(amounts.length);
        for (const { payment } of plan.paid) if (payment.journal) expect(journalSumCents(payment.journal.lines)).toBe(0);
        expect(plan.effects.reduce((sum, e) => sum + e.amountCents, 0)).toBe(plan.total.amountCents);
        expect(plan.effects).toHaveLength(amounts.filter((a) => a > 0).length);
      }),
    );
  });
});
