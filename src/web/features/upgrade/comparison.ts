// The upgrade page's comparison table: what a user pays on each plan for making one card of a
// given amount every month for 1 to 6 months — the combine fees (core fee model) plus the
// subscription after the loyalty discount (core loyalty). Pure composition of core rules.
import { CREATION_FEE_CENTS, productFeePpm, smallestChargeForNet } from '../../../core/fees';
import { discountedPriceCents, planPaymentCents } from '../../../core/loyalty';
import { PLAN_IDS, planPriceCents } from '../../../core/plans';
import type { BillingCycle, PlanId } from '../../../core/plans';

/** docs/rules.md#wizard-steps: card amounts $999 to $10,999 in steps of $1,000, months 1 to 6. */
export const COMPARISON_AMOUNTS_CENTS: readonly number[] = Array.from({ length: 11 }, (_, i) => 99_900 + i * 100_000);
export const COMPARISON_MONTHS: readonly number[] = [1, 2, 3, 4, 5, 6];

/**
 * Fees to end up with a card of `cardCents` from one card source: the smallest charge whose net
 * covers the card and the creation fee taken from it (docs/rules.md#creation-fee), minus the card itself.
 */
export function combineFeesCents(cardCents: number, plan: PlanId, promoActive: boolean): number {
  const rate = productFeePpm({ plan, promoActive, boostUsed: false });
  return smallestChargeForNet(cardCents + CREATION_FEE_CENTS, rate, 'card') - cardCents;
}

/**
 * Subscription paid over `months` months by a subscriber now on `currentPlan`. The first payment is
 * for loyalty month `firstLoyaltyMonth`, discounted only if `plan` is the current plan (an upgrade
 * pays the list price, core/loyalty.ts); monthly, each later payment renews `plan`, by then the
 * current one, at its month's discount. Yearly: one payment covering the whole span.
 */
export function subscriptionCents(plan: PlanId, cycle: BillingCycle, months: number, firstLoyaltyMonth: number, currentPlan: PlanId): number {
  if (plan === 'free') return 0;
  const first = planPaymentCents({ plan, currentPlan, priceCents: planPriceCents(plan, cycle), loyaltyMonth: firstLoyaltyMonth }).amountCents;
  if (cycle === 'yearly') return first;
  let total = first;
  for (let m = 1; m < months; m += 1) total += discountedPriceCents(planPriceCents(plan, 'monthly'), firstLoyaltyMonth + m);
  return total;
}

export type ComparisonRow = { cardCents: number; totals: Record<PlanId, number>; cheapest: PlanId[] };

export function comparisonRows(input: { months: number; cycle: BillingCycle; promoActive: boolean; loyaltyMonths: number; currentPlan: PlanId }): ComparisonRow[] {
  // An upgrade (or the next renewal) pays for the next consecutive month.
  const firstLoyaltyMonth = input.loyaltyMonths + 1;
  return COMPARISON_AMOUNTS_CENTS.map((cardCents) => {
    const totals = Object.fromEntries(
      PLAN_IDS.map((plan) => [
        plan,
        input.months * combineFeesCents(cardCents, plan, input.promoActive) + subscriptionCents(plan, input.cycle, input.months, firstLoyaltyMonth, input.currentPlan),
      ]),
    ) as Record<PlanId, number>;
    const best = Math.min(...PLAN_IDS.map((plan) => totals[plan]));
    return { cardCents, totals, cheapest: PLAN_IDS.filter((plan) => totals[plan] === best) };
  });
}
