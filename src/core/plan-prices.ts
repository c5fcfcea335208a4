// Plan prices and the one rule for the yearly saving, in a module of their own so that the landing
// page can quote the saving without loading the rest of the plan rules (its first-load budget,
// docs/decisions/009). `plans.ts` takes its prices from here.

export type PricedPlanId = 'free' | 'premium' | 'premium+';

export const PLAN_PRICES: Readonly<Record<PricedPlanId, { monthlyCents: number; yearlyCents: number }>> = {
  free: { monthlyCents: 0, yearlyCents: 0 },
  premium: { monthlyCents: 999, yearlyCents: 9_999 },
  'premium+': { monthlyCents: 1_999, yearlyCents: 19_999 },
};

/**
 * The saving the product shows, in whole percent of twelve monthly payments: rounded down, so
 * "Save 16%" is never more than the prices give (the spec's "about 15%" and the earlier rounded
 * "17%" were both off). One rule for the landing page, /upgrade and Settings.
 */
export function yearlySavingPercent(plan: PricedPlanId): number {
  const { monthlyCents, yearlyCents } = PLAN_PRICES[plan];
  const twelveMonthsCents = 12 * monthlyCents;
  if (twelveMonthsCents === 0) return 0;
  return Math.floor(((twelveMonthsCents - yearlyCents) * 100) / twelveMonthsCents);
}

/** The saving every paid plan gets at least, for sentences about yearly billing in general. */
export function yearlySavingPercentAllPlans(): number {
  const paid = (Object.keys(PLAN_PRICES) as PricedPlanId[]).filter((id) => PLAN_PRICES[id].monthlyCents > 0);
  return Math.min(...paid.map(yearlySavingPercent));
}

export const yearlySavingLabel = (percent: number) => `Save ${percent}%`;
