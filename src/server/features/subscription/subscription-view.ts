// What the upgrade page and the Subscription tab show: the plans with the user's prices, and the
// user's subscription with its loyalty month, discount and dates. Every figure comes from core.
import { desc, eq } from 'drizzle-orm';
import { discountedPriceCents, LOYALTY_MAX_PPM, LOYALTY_STEP_PPM, loyaltyDiscountPpm, planPaymentCents } from '../../../core/loyalty';
import { canUpgrade, PLAN_IDS, PLANS, planPriceCents, yearlySavingPpm } from '../../../core/plans';
import type { BillingCycle, PlanId } from '../../../core/plans';
import { isPromoActive } from '../../../core/promo';
import type { PlansResponse, SubscriptionView } from '../../../contracts/subscription';
import type { DbOrTx } from '../../db/client';
import { subscriptionPayments, users } from '../../db/schema';
import { notFound } from '../../lib/errors';

export type UserRow = typeof users.$inferSelect;
type PaymentRow = typeof subscriptionPayments.$inferSelect;
/** A payment as the views show it (its journal is the ledger's business). */
type PaymentShown = Omit<PaymentRow, 'journalId'>;

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export async function loadSubscriber(db: DbOrTx, userId: string, options: { forUpdate?: boolean } = {}): Promise<UserRow> {
  const query = db.select().from(users).where(eq(users.id, userId));
  const [user] = options.forUpdate ? await query.for('no key update') : await query;
  if (!user) throw notFound('Account not found.');
  return user;
}

export async function lastPaymentOf(db: DbOrTx, userId: string): Promise<PaymentRow | null> {
  const [row] = await db
    .select()
    .from(subscriptionPayments)
    .where(eq(subscriptionPayments.userId, userId))
    .orderBy(desc(subscriptionPayments.createdAt))
    .limit(1);
  return row ?? null;
}

export function toPayment(row: PaymentShown): SubscriptionView['lastPayment'] & object {
  return {
    id: row.id,
    plan: row.plan as PlanId,
    billingCycle: row.billingCycle as BillingCycle,
    listPriceCents: row.listPriceCents,
    discountPpm: row.discountPpm,
    amountCents: row.amountCents,
    cardBrand: row.cardBrand,
    cardLast4: row.cardLast4,
    createdAt: row.createdAt.toISOString(),
  };
}

export function toSubscriptionView(user: UserRow, lastPayment: PaymentShown | null): SubscriptionView {
  const plan = user.subscription as PlanId;
  const cycle = user.billingCycle as BillingCycle | null;
  const paid = plan !== 'free' && cycle !== null;
  const priceCents = paid ? planPriceCents(plan, cycle) : 0;
  const renews = paid && !user.cancelAtPeriodEnd;
  return {
    plan,
    billingCycle: paid ? cycle : null,
    priceCents,
    loyaltyMonths: user.loyaltyDiscountMonths,
    loyaltyDiscountPpm: loyaltyDiscountPpm(user.loyaltyDiscountMonths),
    nextLoyaltyDiscountPpm: loyaltyDiscountPpm(user.loyaltyDiscountMonths + 1),
    nextPaymentCents: renews ? discountedPriceCents(priceCents, user.loyaltyDiscountMonths + 1) : null,
    currentSubscriptionStart: iso(user.currentSubscriptionStart),
    periodEnd: iso(user.subscriptionPeriodEnd),
    nextBillingDate: renews ? iso(user.subscriptionPeriodEnd) : null,
    cancelAtPeriodEnd: user.cancelAtPeriodEnd,
    lastCanceledAt: iso(user.subscriptionLastCanceledAt),
    lastPayment: lastPayment ? toPayment(lastPayment) : null,
  };
}

export async function viewSubscription(db: DbOrTx, userId: string): Promise<SubscriptionView> {
  const user = await loadSubscriber(db, userId);
  return toSubscriptionView(user, await lastPaymentOf(db, userId));
}

export async function viewPlans(db: DbOrTx, userId: string, now: Date): Promise<PlansResponse> {
  const user = await loadSubscriber(db, userId);
  const current = user.subscription as PlanId;
  // A payment now is for the next consecutive month (core/loyalty.ts says what it costs).
  const payingMonth = user.loyaltyDiscountMonths + 1;
  return {
    plans: PLAN_IDS.map((id) => {
      const plan = PLANS[id];
      return {
        id,
        label: plan.label,
        name: plan.name,
        priceMonthlyCents: plan.priceMonthlyCents,
        priceYearlyCents: plan.priceYearlyCents,
        yearlySavingPpm: yearlySavingPpm(id),
        monthlyCombineLimit: plan.monthlyCombineLimit,
        productFeePpm: plan.productFeePpm,
        cashoutFeePpm: plan.cashoutFeePpm,
        payoutMethods: [...plan.payoutMethods],
        emailSupport: plan.emailSupport,
        showsAds: plan.showsAds,
        features: [...plan.features],
        current: id === current,
        upgradable: canUpgrade(current, id),
        firstPaymentCents: {
          monthly: planPaymentCents({ plan: id, currentPlan: current, priceCents: plan.priceMonthlyCents, loyaltyMonth: payingMonth }).amountCents,
          yearly: planPaymentCents({ plan: id, currentPlan: current, priceCents: plan.priceYearlyCents, loyaltyMonth: payingMonth }).amountCents,
        },
      };
    }),
    subscription: toSubscriptionView(user, await lastPaymentOf(db, userId)),
    promoActive: isPromoActive({ promoEnd: user.promoEnd, now }),
    loyalty: {
      months: user.loyaltyDiscountMonths,
      currentDiscountPpm: loyaltyDiscountPpm(user.loyaltyDiscountMonths),
      nextDiscountPpm: loyaltyDiscountPpm(payingMonth),
      stepPpm: LOYALTY_STEP_PPM,
      maxPpm: LOYALTY_MAX_PPM,
    },
  };
}
