import { divRoundHalfUp, formatPpmAsPercent } from './money';
import { PLAN_PRICES } from './plan-prices';

export { yearlySavingLabel, yearlySavingPercent, yearlySavingPercentAllPlans } from './plan-prices';

export type PlanId = 'free' | 'premium' | 'premium+';
export type PayoutMethod = 'ach' | 'paypal' | 'cashapp';
export type BillingCycle = 'monthly' | 'yearly';

export const PLAN_IDS: readonly PlanId[] = ['free', 'premium', 'premium+'];
export const PAYOUT_METHODS: readonly PayoutMethod[] = ['ach', 'paypal', 'cashapp'];

export const PAYOUT_METHOD_LABELS: Readonly<Record<PayoutMethod, string>> = {
  ach: 'ACH',
  paypal: 'PayPal',
  cashapp: 'Cash App',
};

export interface Plan {
  readonly id: PlanId;
  /** Shown in the side menu: 'Free Plan'. */
  readonly label: string;
  /** Used inside sentences: 'on the Free plan'. */
  readonly name: string;
  /** Completed combines per calendar month (UTC); null means unlimited. */
  readonly monthlyCombineLimit: number | null;
  readonly productFeePpm: number;
  readonly cashoutFeePpm: number;
  readonly payoutMethods: readonly PayoutMethod[];
  readonly priceMonthlyCents: number;
  readonly priceYearlyCents: number;
  readonly emailSupport: boolean;
  readonly showsAds: boolean;
  readonly features: readonly string[];
}

/**
 * Payout methods as words for a sentence: 'ACH', 'ACH and PayPal', 'ACH, PayPal and Cash App'
 * (or 'or'). No serial comma, as in the rest of the copy; that is why this is not
 * Intl.ListFormat, whose en-US form always writes 'PayPal, and Cash App'.
 */
export function payoutMethodList(methods: readonly PayoutMethod[], conjunction: 'and' | 'or'): string {
  const labels = methods.map((m) => PAYOUT_METHOD_LABELS[m]);
  if (labels.length <= 1) return labels.join('');
  return `${labels.slice(0, -1).join(', ')} ${conjunction} ${labels[labels.length - 1] ?? ''}`;
}

function describePayouts(methods: readonly PayoutMethod[]): string {
  return `Cash out to ${payoutMethodList(methods, 'or')}`;
}

// Features are derived from the figures so that the plan cards cannot drift from the rules.
function definePlan(plan: Omit<Plan, 'features'>): Plan {
  const features = [
    plan.monthlyCombineLimit === null
      ? 'Unlimited combines per month'
      : `${plan.monthlyCombineLimit} combines per month`,
    `${formatPpmAsPercent(plan.productFeePpm)} product fee`,
    `${formatPpmAsPercent(plan.cashoutFeePpm)} cash-out fee`,
    describePayouts(plan.payoutMethods),
  ];
  if (plan.emailSupport) features.push('E-mail support');
  if (!plan.showsAds) features.push('No ads');
  return { ...plan, features };
}

export const PLANS: Readonly<Record<PlanId, Plan>> = {
  free: definePlan({
    id: 'free',
    label: 'Free Plan',
    name: 'Free',
    monthlyCombineLimit: 3,
    productFeePpm: 10_000,
    cashoutFeePpm: 10_000,
    payoutMethods: ['ach'],
    priceMonthlyCents: PLAN_PRICES.free.monthlyCents,
    priceYearlyCents: PLAN_PRICES.free.yearlyCents,
    emailSupport: false,
    showsAds: true,
  }),
  premium: definePlan({
    id: 'premium',
    label: 'Premium Plan',
    name: 'Premium',
    monthlyCombineLimit: 10,
    productFeePpm: 5_000,
    cashoutFeePpm: 5_000,
    payoutMethods: ['ach', 'paypal'],
    priceMonthlyCents: PLAN_PRICES.premium.monthlyCents,
    priceYearlyCents: PLAN_PRICES.premium.yearlyCents,
    emailSupport: true,
    showsAds: false,
  }),
  'premium+': definePlan({
    id: 'premium+',
    label: 'Premium+ Plan',
    name: 'Premium+',
    monthlyCombineLimit: null,
    productFeePpm: 0,
    cashoutFeePpm: 2_500,
    payoutMethods: ['ach', 'paypal', 'cashapp'],
    priceMonthlyCents: PLAN_PRICES['premium+'].monthlyCents,
    priceYearlyCents: PLAN_PRICES['premium+'].yearlyCents,
    emailSupport: true,
    showsAds: false,
  }),
};

export function isPlanId(value: unknown): value is PlanId {
  return typeof value === 'string' && (PLAN_IDS as readonly string[]).includes(value);
}

export function isPayoutMethod(value: unknown): value is PayoutMethod {
  return typeof value === 'string' && (PAYOUT_METHODS as readonly string[]).includes(value);
}

export function planPriceCents(plan: PlanId, cycle: BillingCycle): number {
  const p = PLANS[plan];
  return cycle === 'monthly' ? p.priceMonthlyCents : p.priceYearlyCents;
}

/** What a year paid yearly saves against twelve monthly payments, in ppm (~166 000 = 16.6%). */
export function yearlySavingPpm(plan: PlanId): number {
  const { priceMonthlyCents, priceYearlyCents } = PLANS[plan];
  const twelveMonths = 12 * priceMonthlyCents;
  if (twelveMonths === 0) return 0;
  return divRoundHalfUp((twelveMonths - priceYearlyCents) * 1_000_000, twelveMonths);
}

/** Only moves to a higher tier are sold; downgrades happen by cancelling (docs/rules.md#cancel-subscription). */
export function canUpgrade(from: PlanId, to: PlanId): boolean {
  return PLAN_IDS.indexOf(to) > PLAN_IDS.indexOf(from);
}

export function isPayoutMethodAllowed(plan: PlanId, method: PayoutMethod): boolean {
  return PLANS[plan].payoutMethods.includes(method);
}
