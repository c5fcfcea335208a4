// Monthly combine limits (docs/rules.md#combine-limit): completed combines per calendar month in UTC.

import { PLANS } from './plans';
import type { PlanId } from './plans';

export function monthStartUtc(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
}

/** Exclusive end of the month that `now` is in, for range queries. */
export function nextMonthStartUtc(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
}

export function monthlyLimitMessage(plan: PlanId): string {
  const { monthlyCombineLimit, name } = PLANS[plan];
  return `You have reached your monthly limit of ${monthlyCombineLimit ?? 'unlimited'} combines on the ${name} plan. Upgrade for more.`;
}

export type MonthlyLimitCheck =
  | { ok: true; limit: number | null; remaining: number | null }
  | { ok: false; limit: number; remaining: 0; message: string };

export function checkMonthlyLimit(input: { plan: PlanId; completedThisMonth: number }): MonthlyLimitCheck {
  const { completedThisMonth } = input;
  if (!Number.isSafeInteger(completedThisMonth) || completedThisMonth < 0) {
    throw new RangeError(`completedThisMonth must be a non-negative integer, got ${completedThisMonth}`);
  }
  const limit = PLANS[input.plan].monthlyCombineLimit;
  if (limit === null) return { ok: true, limit: null, remaining: null };
  if (completedThisMonth >= limit) {
    return { ok: false, limit, remaining: 0, message: monthlyLimitMessage(input.plan) };
  }
  return { ok: true, limit, remaining: limit - completedThisMonth };
}

/** "2 of 3 combines left this month", the same words on the dashboard and in the wizard; null when unlimited. */
export function combinesLeftText(allowance: { limit: number | null; remaining: number | null }): string | null {
  if (allowance.limit === null || allowance.remaining === null) return null;
  return `${allowance.remaining} of ${allowance.limit} ${allowance.limit === 1 ? 'combine' : 'combines'} left this month`;
}
