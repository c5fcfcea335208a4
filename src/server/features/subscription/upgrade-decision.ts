// The upgrade decided, in the server's terms: the core's plan (core/plan-subscription-payment.ts:
// the price, the loyalty month, the journal, the subscriber's new plan) and the payment row, the
// journal and the answer it turns into, for the upgrade's writer (upgrade-write.ts). Pure.
import { planUpgradePayment, type SubscriberAfterUpgrade } from '../../../core/plan-subscription-payment';
import { writeSetOfSubscriptionPayment } from '../../../core/write-set-of';
import { PLANS, type PlanId } from '../../../core/plans';
import { SUBSCRIPTION_MESSAGES, type UpgradeRequest, type UpgradeResponse } from '../../../contracts/subscription';
import type { subscriptionPayments } from '../../db/schema';
import { postingsOf } from '../../ledger/accounts';
import type { JournalInput } from '../../ledger/post-journal';
import { refusalError } from '../../lib/errors';
import type { Decision } from '../../money/run-money-operation';
import { toPayment, toSubscriptionView, type UserRow } from './subscription-view';

/** The payment row as written; its journal's id is the writer's (the row and its journal are one statement). */
export type NewPayment = Omit<typeof subscriptionPayments.$inferSelect, 'journalId'>;

/** What the upgrade writes: the payment with its journal, and the subscriber's new plan if it is still on `fromPlan`. */
export type UpgradeWrite = { payment: NewPayment; journal: JournalInput; fromPlan: PlanId; subscriber: SubscriberAfterUpgrade };

export type UpgradeFacts = {
  /** The subscriber, as the reader locked them. */
  user: UserRow;
  request: Pick<UpgradeRequest, 'plan' | 'billingCycle'>;
  /** The payment card as kept: only its brand and last 4 digits. */
  card: { brand: string | null; last4: string | null };
  paymentId: string;
  now: Date;
  demoMode: boolean;
};

export function decideUpgrade(facts: UpgradeFacts): Decision<UpgradeWrite> {
  const { user, request, card, paymentId, now, demoMode } = facts;
  const fromPlan = user.subscription as PlanId;
  const plan = planUpgradePayment({ subscriber: { plan: fromPlan, loyaltyDiscountMonths: user.loyaltyDiscountMonths }, request, now });
  if (!plan.ok) return { refusal: refusalError(plan) };
  const payment: NewPayment = {
    id: paymentId,
    userId: user.id,
    ...plan.payment,
    cardBrand: card.brand,
    cardLast4: card.last4,
    createdAt: now,
    simulated: demoMode,
    testSource: demoMode ? 'MVP-Demo' : '',
    environment: demoMode ? 'test' : 'production',
  };
  const journal: JournalInput = { kind: plan.journal.kind, userId: user.id, referenceId: paymentId, memo: plan.journal.memo, entries: postingsOf(plan.journal.lines) };
  // The answer, from the rows as the write leaves them (the subscriber is locked until the commit), not read back.
  const upgraded: UserRow = { ...user, ...plan.subscriber };
  const body: UpgradeResponse = {
    success: true,
    message: SUBSCRIPTION_MESSAGES.upgraded(PLANS[plan.payment.plan].name),
    subscription: toSubscriptionView(upgraded, payment),
    payment: toPayment(payment),
    nextBillingDate: plan.subscriber.subscriptionPeriodEnd.toISOString(),
  };
  return { write: { payment, journal, fromPlan, subscriber: plan.subscriber }, answer: { status: 200, body }, effects: [], writeSet: writeSetOfSubscriptionPayment(plan) };
}
