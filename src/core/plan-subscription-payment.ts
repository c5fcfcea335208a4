// A subscription paid (docs/rules.md#plans, docs/rules.md#loyalty), by an upgrade or by a renewal at
// the end of a period: the payment's figures, its balanced journal (the payment card → subscription
// revenue) and the subscriber as the payment leaves them. An upgrade to a plan that is no higher is
// "Not Available". One rule prices both: the loyalty discount applies to the current plan's price
// only, and every payment is one more consecutive month.
import { addDays, BILLING_PERIOD_DAYS, nextBillingDate } from './dates';
import { planPaymentCents } from './loyalty';
import { assertJournalBalanced, refuse, type JournalLine, type Refusal } from './money-plan';
import { canUpgrade, planPriceCents, type BillingCycle, type PlanId } from './plans';

export const PLAN_NOT_AVAILABLE_MESSAGE = 'Not Available';

export type UpgradeFacts = {
  subscriber: { plan: PlanId; loyaltyDiscountMonths: number };
  request: { plan: PlanId; billingCycle: BillingCycle };
  now: Date;
};

/** The subscriber's fields as the upgrade leaves them. */
export type SubscriberAfterUpgrade = {
  subscription: PlanId;
  billingCycle: BillingCycle;
  subscriptionPriceCents: number;
  subscriptionUpdated: Date;
  currentSubscriptionStart: Date;
  subscriptionPeriodEnd: Date;
  cancelAtPeriodEnd: false;
  subscriptionLastCanceledAt: null;
  loyaltyDiscountMonths: number;
  lastUpdated: Date;
};

export type SubscriptionPayment = {
  payment: { plan: PlanId; billingCycle: BillingCycle; listPriceCents: number; discountPpm: number; amountCents: number };
  journal: { kind: 'subscription'; memo: string; lines: JournalLine[] };
};

export type UpgradePlan = SubscriptionPayment & { ok: true; subscriber: SubscriberAfterUpgrade };

/** `plan` paid for one more consecutive month (`loyaltyMonth`), by a subscriber now on `currentPlan`. */
function subscriptionPayment(input: { plan: PlanId; currentPlan: PlanId; billingCycle: BillingCycle; loyaltyMonth: number; memo: string }): SubscriptionPayment {
  const { plan, billingCycle } = input;
  const listPriceCents = planPriceCents(plan, billingCycle);
  const { discountPpm, amountCents } = planPaymentCents({ plan, currentPlan: input.currentPlan, priceCents: listPriceCents, loyaltyMonth: input.loyaltyMonth });
  const lines: JournalLine[] = [
    { account: { system: 'fundingSources' }, amountCents: -amountCents },
    { account: { system: 'subscriptionRevenue' }, amountCents },
  ];
  assertJournalBalanced(lines);
  return { payment: { plan, billingCycle, listPriceCents, discountPpm, amountCents }, journal: { kind: 'subscription', memo: input.memo, lines } };
}

export function planUpgradePayment(facts: UpgradeFacts): UpgradePlan | Refusal {
  const { subscriber, request, now } = facts;
  // Only moves to a higher tier are sold; the current plan and downgrades are 'Not Available'.
  if (!canUpgrade(subscriber.plan, request.plan)) return refuse(409, 'not_available', PLAN_NOT_AVAILABLE_MESSAGE);
  // The payment is for the next consecutive month, which counts towards later discounts; the
  // discount itself is on the current plan's price only, so an upgrade pays the list price.
  const loyaltyMonth = subscriber.loyaltyDiscountMonths + 1;
  const paid = subscriptionPayment({ plan: request.plan, currentPlan: subscriber.plan, billingCycle: request.billingCycle, loyaltyMonth, memo: `${request.plan} ${request.billingCycle}` });
  const listPriceCents = paid.payment.listPriceCents;
  return {
    ok: true,
    ...paid,
    subscriber: {
      subscription: request.plan,
      billingCycle: request.billingCycle,
      subscriptionPriceCents: listPriceCents,
      subscriptionUpdated: now,
      currentSubscriptionStart: now,
      subscriptionPeriodEnd: nextBillingDate(now, request.billingCycle),
      cancelAtPeriodEnd: false,
      subscriptionLastCanceledAt: null,
      loyaltyDiscountMonths: loyaltyMonth,
      lastUpdated: now,
    },
  };
}

export type RenewalFacts = {
  subscriber: { plan: PlanId; billingCycle: BillingCycle; loyaltyDiscountMonths: number; subscriptionPeriodEnd: Date };
  now: Date;
};

export type RenewalPlan = SubscriptionPayment & {
  subscriber: { subscriptionPeriodEnd: Date; loyaltyDiscountMonths: number; subscriptionUpdated: Date; lastUpdated: Date };
};

/**
 * A period's end renewed (docs/rules.md#subscriptions, docs/decisions/008-cashout-payouts-and-subscriptions.md): the same
 * plan for one more consecutive month at its loyalty-discounted price, the new period following
 * the old one without a gap, whenever the job runs.
 */
export function planRenewalPayment(facts: RenewalFacts): RenewalPlan {
  const { subscriber, now } = facts;
  const loyaltyMonth = subscriber.loyaltyDiscountMonths + 1;
  const { plan, billingCycle } = subscriber;
  return {
    ...subscriptionPayment({ plan, currentPlan: plan, billingCycle, loyaltyMonth, memo: `${plan} ${billingCycle} renewal` }),
    subscriber: {
      subscriptionPeriodEnd: addDays(subscriber.subscriptionPeriodEnd, BILLING_PERIOD_DAYS[billingCycle]),
      loyaltyDiscountMonths: loyaltyMonth,
      subscriptionUpdated: now,
      lastUpdated: now,
    },
  };
}
