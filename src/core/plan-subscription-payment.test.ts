import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { journalSumCents } from './money-plan';
import { planRenewalPayment, planUpgradePayment, PLAN_NOT_AVAILABLE_MESSAGE, type UpgradeFacts } from './plan-subscription-payment';
import { PLAN_IDS, type BillingCycle, type PlanId } from './plans';

const NOW = new Date('2026-06-15T12:00:00Z');
const upgrade = (from: PlanId, to: PlanId, billingCycle: BillingCycle = 'monthly', loyaltyDiscountMonths = 0): UpgradeFacts => ({
  subscriber: { plan: from, loyaltyDiscountMonths },
  request: { plan: to, billingCycle },
  now: NOW,
});

describe('planUpgradePayment', () => {
  it('Free → Premium monthly: $9.99 from the payment card to subscription revenue, a 30-day period from now', () => {
    expect(planUpgradePayment(upgrade('free', 'premium'))).toEqual({
      ok: true,
      payment: { plan: 'premium', billingCycle: 'monthly', listPriceCents: 999, discountPpm: 0, amountCents: 999 },
      journal: {
        kind: 'subscription',
        memo: 'premium monthly',
        lines: [
          { account: { system: 'fundingSources' }, amountCents: -999 },
          { account: { system: 'subscriptionRevenue' }, amountCents: 999 },
        ],
      },
      subscriber: {
        subscription: 'premium',
        billingCycle: 'monthly',
        subscriptionPriceCents: 999,
        subscriptionUpdated: NOW,
        currentSubscriptionStart: NOW,
        subscriptionPeriodEnd: new Date('2026-07-15T12:00:00Z'),
        cancelAtPeriodEnd: false,
        subscriptionLastCanceledAt: null,
        loyaltyDiscountMonths: 1,
        lastUpdated: NOW,
      },
    });
  });
  it('an upgrade pays the list price in any loyalty month, and its month still counts (decision 159)', () => {
    const plan = planUpgradePayment(upgrade('premium', 'premium+', 'yearly', 5));
    if (!plan.ok) throw new Error(plan.message);
    expect(plan.payment).toEqual({ plan: 'premium+', billingCycle: 'yearly', listPriceCents: 19_999, discountPpm: 0, amountCents: 19_999 });
    expect(plan.subscriber.loyaltyDiscountMonths).toBe(6);
    expect(plan.subscriber.subscriptionPeriodEnd).toEqual(new Date('2027-06-15T12:00:00Z'));
  });
  it("the current plan and downgrades are 'Not Available'", () => {
    for (const [from, to] of [['premium', 'premium'], ['premium+', 'premium'], ['premium', 'free'], ['free', 'free']] as const) {
      expect(planUpgradePayment(upgrade(from, to))).toEqual({ ok: false, status: 409, code: 'not_available', message: PLAN_NOT_AVAILABLE_MESSAGE });
    }
  });
  it('for any move and loyalty month (fast-check): sold only upwards, at a balanced list price', () => {
    fc.assert(
      fc.property(fc.constantFrom(...PLAN_IDS), fc.constantFrom(...PLAN_IDS), fc.constantFrom<BillingCycle>('monthly', 'yearly'), fc.nat(120), (from, to, cycle, months) => {
        const plan = planUpgradePayment(upgrade(from, to, cycle, months));
        expect(plan.ok).toBe(PLAN_IDS.indexOf(to) > PLAN_IDS.indexOf(from));
        if (!plan.ok) return;
        expect(journalSumCents(plan.journal.lines)).toBe(0);
        expect(plan.payment.amountCents).toBe(plan.payment.listPriceCents);
        expect(plan.subscriber.loyaltyDiscountMonths).toBe(months + 1);
      }),
    );
  });
});

describe('planRenewalPayment', () => {
  const renew = (plan: PlanId, billingCycle: BillingCycle, loyaltyDiscountMonths: number) =>
    planRenewalPayment({ subscriber: { plan, billingCycle, loyaltyDiscountMonths, subscriptionPeriodEnd: NOW }, now: new Date('2026-06-16T03:00:00Z') });

  it('docs/rules.md#loyalty-months: Premium $9.99 renewed into months 2 to 6 pays $8.99, $7.99, $6.99, $5.99, $4.99, and month 7 still $4.99', () => {
    expect([1, 2, 3, 4, 5, 6].map((months) => renew('premium', 'monthly', months).payment.amountCents)).toEqual([899, 799, 699, 599, 499, 499]);
  });

  it('docs/rules.md#loyalty: Premium+ yearly $199.99 in month 3 pays $159.99, journaled from the payment card to subscription revenue', () => {
    const renewal = renew('premium+', 'yearly', 2);
    expect(renewal.payment).toEqual({ plan: 'premium+', billingCycle: 'yearly', listPriceCents: 19_999, discountPpm: 200_000, amountCents: 15_999 });
    expect(renewal.journal).toEqual({
      kind: 'subscription',
      memo: 'premium+ yearly renewal',
      lines: [
        { account: { system: 'fundingSources' }, amountCents: -15_999 },
        { account: { system: 'subscriptionRevenue' }, amountCents: 15_999 },
      ],
    });
  });

  it('the new period follows the old one without a gap, however late the job runs, and counts one more loyalty month', () => {
    const renewal = renew('premium', 'monthly', 4);
    expect(renewal.subscriber.subscriptionPeriodEnd.toISOString()).toBe('2026-07-15T12:00:00.000Z');
    expect(renewal.subscriber.loyaltyDiscountMonths).toBe(5);
  });

  it('any plan, cycle and loyalty month: a balanced journal and the discount of that month, never above 50%', () => {
    fc.assert(
      fc.property(fc.constantFrom<PlanId>('premium', 'premium+'), fc.constantFrom<BillingCycle>('monthly', 'yearly'), fc.nat({ max: 12 }), (plan, cycle, months) => {
        const renewal = renew(plan, cycle, months);
        expect(journalSumCents(renewal.journal.lines)).toBe(0);
        expect(renewal.payment.amountCents).toBeGreaterThan(0);
        expect(renewal.payment.amountCents).toBeLessThanOrEqual(renewal.payment.listPriceCents);
        expect(renewal.payment.discountPpm).toBe(Math.min(500_000, months * 100_000));
      }),
    );
  });
});
