// How the FAQ's answers put the core's figures into words, shared by its categories.
import { BNPL_FEE_MAX_PPM } from '../../../core/fees';
import { formatPpmAsPercent, formatUsd } from '../../../core/money';
import { PAYOUT_METHOD_LABELS, PLAN_IDS, PLANS } from '../../../core/plans';
import type { PayoutMethod, Plan } from '../../../core/plans';

export const plans: readonly Plan[] = PLAN_IDS.map((id) => PLANS[id]);
export const percent = formatPpmAsPercent;

/** "A, B and C". */
export function listing(words: readonly string[]): string {
  if (words.length <= 1) return words.join('');
  return `${words.slice(0, -1).join(', ')} and ${words[words.length - 1] ?? ''}`;
}

export function payoutLabels(methods: readonly PayoutMethod[]): string {
  return listing(methods.map((method) => PAYOUT_METHOD_LABELS[method]));
}

export function perPlan(describe: (plan: Plan) => string): string {
  return plans.map((plan) => `${plan.name}: ${describe(plan)}`).join('; ');
}

export function combineLimit(plan: Plan): string {
  return plan.monthlyCombineLimit === null ? 'unlimited' : `${plan.monthlyCombineLimit} per month`;
}

export function price(plan: Plan): string {
  // 'Free (free)' said nothing: the price in the same form as the others, as the upgrade page has it.
  if (plan.priceMonthlyCents === 0) return `${formatUsd(0)} a month`;
  return `${formatUsd(plan.priceMonthlyCents)} a month or ${formatUsd(plan.priceYearlyCents)} a year`;
}

export const bnplAllowance = percent(BNPL_FEE_MAX_PPM);
