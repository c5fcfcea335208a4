// An upgrade paid (docs/rules.md#plans, docs/rules.md#loyalty): from the subscriber's plan and loyalty
// month and the plan asked for, either "Not Available" or what the server writes: the payment's
// figures, its balanced journal (the payment card → subscription revenue) and the subscriber's new
// plan, billing cycle, period and loyalty month.
import { nextBillingDate } from './dates';
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

export type UpgradePlan = {
  ok: true;
  payment: { plan: PlanId; billingCycle: BillingCycle; listPriceCents: number; discountPpm: number; amountCents: number };
  journal: { kind: 'subscription'; memo: string; lines: JournalLine[] };
  subscriber: SubscriberAfterUpgrade;
};

export function planUpgradePayment(facts: UpgradeFacts): UpgradePlan | Refusal {
  const { subscriber, request, now } = facts;
  // Only moves to a higher tier are sold; the current plan and downgrades are 'Not Available'.
  if (!canUpgrade(subscriber.plan, request.plan)) return refuse(409, 'not_available', PLAN_NOT_AVAILABLE_MESSAGE);
  const listPriceCents = planPriceCents(request.plan, request.billingCycle);
  // The payment is for the next consecutive month, which counts towards later discounts; the
  // discount itself is on the current plan's price only, so an upgrade pays the list price.
  const loyaltyMonth = subscriber.loyaltyDiscountMonths + 1;
  const { discountPpm, amountCents } = planPaymentCents({ plan: request.plan, currentPlan: subscriber.plan, priceCents: listPriceCents, loyaltyMonth });
  const lines: JournalLine[] = [
    { account: { system: 'fundingSources' }, amountCents: -amountCents },
    { account: { system: 'subscriptionRevenue' }, amountCents },
  ];
  assertJournalBalanced(lines);
  return {
    ok: true,
    payment: { plan: request.plan, billingCycle: request.billingCycle, listPriceCents, discountPpm, amountCents },
    journal: { kind: 'subscription', memo: `${request.plan} ${request.billingCycle}`, lines },
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
