// The launch promo (docs/rules.md#launch-promo): the first 100 users whose completed card total is at least
// $1,000.00 get the product fee (and the cash-out fee) halved for 12 months from the claim.

import { addMonths, daysUntil } from './dates';
import { assertNonNegativeCents } from './money';

export const PROMO = {
  id: 'promo_50off_001',
  limitCount: 100,
  minTotalCents: 100_000,
  durationMonths: 12,
} as const;

export function isPromoActive(input: { promoEnd: Date | null; now: Date }): boolean {
  return input.promoEnd !== null && input.now.getTime() < input.promoEnd.getTime();
}

/**
 * Whether this combine claims a spot. It is judged on the combine's requested total (the card
 * amount can differ from it by the creation fee or rounding, and must not flip the outcome).
 * A user holds the promo at most once, even after it has run out.
 */
export function qualifiesForPromo(input: {
  totalCents: number;
  hasPromo: boolean;
  remainingCount: number;
}): boolean {
  assertNonNegativeCents(input.totalCents, 'totalCents');
  return !input.hasPromo && input.remainingCount > 0 && input.totalCents >= PROMO.minTotalCents;
}

/**
 * The product-fee rate of a combine is halved when the user's promo is running, and also when
 * this very combine claims a spot: the qualifying combine already gets the discount.
 */
export function promoAppliesToCombine(input: {
  promoEnd: Date | null;
  hasPromo: boolean;
  now: Date;
  totalCents: number;
  remainingCount: number;
}): boolean {
  return isPromoActive(input) || qualifiesForPromo(input);
}

export function promoEndFrom(start: Date): Date {
  return addMonths(start, PROMO.durationMonths);
}

/** Days left for the settings page, a started day counting as one; 0 without a running promo. */
export function promoDaysRemaining(promoEnd: Date | null, now: Date): number {
  return promoEnd === null ? 0 : daysUntil(promoEnd, now);
}

/** Spots left for the landing page: never negative, whatever the counter says. */
export function remainingSpots(claimed: number): number {
  if (!Number.isSafeInteger(claimed) || claimed < 0) {
    throw new RangeError(`claimed must be a non-negative integer, got ${claimed}`);
  }
  return Math.max(0, PROMO.limitCount - claimed);
}
