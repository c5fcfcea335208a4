import { describe, expect, it } from 'vitest';
import {
  canUpgrade,
  isPayoutMethodAllowed,
  PAYOUT_METHOD_LABELS,
  payoutMethodList,
  planPriceCents,
  PLAN_IDS,
  PLANS,
  yearlySavingPpm,
  yearlySavingPercent,
  yearlySavingPercentAllPlans,
  yearlySavingLabel,
} from './plans';
import type { PayoutMethod, PlanId } from './plans';

describe('plan table (docs/rules.md#plans, docs/rules.md#fee-examples, docs/rules.md#plans)', () => {
  it('has the labels and names', () => {
    expect(PLAN_IDS.map((p) => PLANS[p].label)).toEqual(['Free Plan', 'Premium Plan', 'Premium+ Plan']);
    expect(PLAN_IDS.map((p) => PLANS[p].name)).toEqual(['Free', 'Premium', 'Premium+']);
  });
  it('has limits 3 / 10 / unlimited', () => {
    expect(PLAN_IDS.map((p) => PLANS[p].monthlyCombineLimit)).toEqual([3, 10, null]);
  });
  it('has product fees 1% / 0.5% / 0% and cash-out fees 1% / 0.5% / 0.25%', () => {
    expect(PLAN_IDS.map((p) => PLANS[p].productFeePpm)).toEqual([10_000, 5_000, 0]);
    expect(PLAN_IDS.map((p) => PLANS[p].cashoutFeePpm)).toEqual([10_000, 5_000, 2_500]);
  });
  it('has prices $0 / $9.99 / $19.99 monthly and $0 / $99.99 / $199.99 yearly', () => {
    expect(PLAN_IDS.map((p) => planPriceCents(p, 'monthly'))).toEqual([0, 999, 1_999]);
    expect(PLAN_IDS.map((p) => planPriceCents(p, 'yearly'))).toEqual([0, 9_999, 19_999]);
  });
  it('derives the feature list from the figures', () => {
    expect(PLANS.free.features).toEqual(['3 combines per month', '1% product fee', '1% cash-out fee', 'Cash out to ACH']);
    expect(PLANS['premium+'].features).toEqual([
      'Unlimited combines per month', '0% product fee', '0.25% cash-out fee',
      'Cash out to ACH, PayPal or Cash App', 'E-mail support', 'No ads',
    ]);
    expect(PLANS.premium.features).toContain('Cash out to ACH or PayPal');
  });
});

describe('payout methods per plan (docs/rules.md#payout-methods-by-plan)', () => {
  it('labels the methods', () => {
    expect(PAYOUT_METHOD_LABELS).toEqual({ ach: 'ACH', paypal: 'PayPal', cashapp: 'Cash App' });
  });
  it('lists them as a sentence does', () => {
    expect(PLAN_IDS.map((p) => payoutMethodList(PLANS[p].payoutMethods, 'and'))).toEqual(['ACH', 'ACH and PayPal', 'ACH, PayPal and Cash App']);
    expect(payoutMethodList(['paypal', 'cashapp'], 'or')).toBe('PayPal or Cash App');
    expect(payoutMethodList([], 'and')).toBe('');
  });
  it.each<[PlanId, PayoutMethod, boolean]>([
    ['free', 'ach', true], ['free', 'paypal', false], ['free', 'cashapp', false],
    ['premium', 'ach', true], ['premium', 'paypal', true], ['premium', 'cashapp', false],
    ['premium+', 'ach', true], ['premium+', 'paypal', true], ['premium+', 'cashapp', true],
  ])('%s may use %s: %s', (plan, method, allowed) => {
    expect(isPayoutMethodAllowed(plan, method)).toBe(allowed);
  });
});

describe('upgrades go up only (docs/rules.md#upgrades Subscription)', () => {
  it.each<[PlanId, PlanId, boolean]>([
    ['free', 'premium', true], ['free', 'premium+', true], ['premium', 'premium+', true],
    ['free', 'free', false], ['premium', 'premium', false], ['premium+', 'premium+', false],
    ['premium', 'free', false], ['premium+', 'premium', false], ['premium+', 'free', false],
  ])('%s → %s: %s', (from, to, ok) => {
    expect(canUpgrade(from, to)).toBe(ok);
  });
});

describe('yearly saving against 12 monthly payments', () => {
  it('is about 16.6% (the spec rounds it to "about 15%")', () => {
    expect(yearlySavingPpm('premium')).toBe(165_916); // (11 988 − 9 999) / 11 988
    expect(yearlySavingPpm('premium+')).toBe(166_291); // (23 988 − 19 999) / 23 988
    expect(yearlySavingPpm('free')).toBe(0);
    // Shown rounded down: 16.59% and 16.63% are 'Save 16%', never more than the prices give.
    expect(yearlySavingPercent('premium')).toBe(16);
    expect(yearlySavingPercent('premium+')).toBe(16);
    expect(yearlySavingPercentAllPlans()).toBe(16);
    expect(yearlySavingLabel(yearlySavingPercentAllPlans())).toBe('Save 16%');
  });
});
