// Loyalty discount on the current plan's price (docs/rules.md#loyalty): nothing in the first subscribed
// month, then 10% more per consecutive month, capped at 50% from month 6. Cancelling resets the
// month count, which is the caller's business; this module only maps a count to a discount.

import { applyPpm, assertNonNegativeCents } from './money';
import type { PlanId } from './plans';

export const LOYALTY_STEP_PPM = 100_000;
export const LOYALTY_MAX_PPM = 500_000;

/** Discount for the n-th consecutive subscribed month: min(50%, 10% × (n − 1)); 0 for n ≤ 1. */
export function loyaltyDiscountPpm(loyaltyMonths: number): number {
  if (!Number.isSafeInteger(loyaltyMonths) || loyaltyMonths < 0) {
    throw new RangeError(`loyaltyMonths must be a non-negative integer, got ${loyaltyMonths}`);
  }
  return Math.min(LOYALTY_MAX_PPM, Math.max(0, loyaltyMonths - 1) * LOYALTY_STEP_PPM);
}

/** The discount itself is rounded half up, so the price paid is the rest of the price. */
export function loyaltyDiscountCents(priceCents: number, loyaltyMonths: number): number {
  assertNonNegativeCents(priceCents, 'priceCents');
  return applyPpm(priceCents, loyaltyDiscountPpm(loyaltyMonths));
}

export function discountedPriceCents(priceCents: number, loyaltyMonths: number): number {
  return priceCents - loyaltyDiscountCents(priceCents, loyaltyMonths);
}

/**
 * What a payment for `plan` costs a subscriber now on `currentPlan`, paying for loyalty month
 * `loyaltyMonth`. The discount is on the current plan's price only (docs/rules.md#loyalty, docs/rules.md#loyalty;
 * decision 159): a renewal of the current plan gets it, a payment for another plan (an upgrade)
 * pays that plan's list price, and its month still counts towards the next discounts.
 */
export function planPaymentCents(input: { plan: PlanId; currentPlan: PlanId; priceCents: number; loyaltyMonth: number }): { discountPpm: number; amountCents: number } {
  assertNonNegativeCents(input.priceCents, 'priceCents');
  const discountPpm = input.plan === input.currentPlan ? loyaltyDiscountPpm(input.loyaltyMonth) : 0;
  return { discountPpm, amountCents: input.priceCents - applyPpm(input.priceCents, discountPpm) };
}
