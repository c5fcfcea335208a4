// POST /api/subscription/upgrade: pay for a higher plan and switch to it, in one transaction.
// The payment card is checked and forgotten: only its brand and last 4 digits are kept (on the
// payment row). Demo mode simulates the charge; live mode answers 501 before anything happens.
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { detectBrand, last4, normaliseCardNumber } from '../../../core/cards';
import { nextBillingDate } from '../../../core/dates';
import { planPaymentCents } from '../../../core/loyalty';
import { canUpgrade, PLANS, planPriceCents } from '../../../core/plans';
import type { PlanId } from '../../../core/plans';
import { paymentCardProblems, SUBSCRIPTION_MESSAGES, type UpgradeRequest, type UpgradeResponse } from '../../../contracts/subscription';
import type { Tx } from '../../db/client';
import { subscriptionPayments, users } from '../../db/schema';
import { SYSTEM_ACCOUNTS } from '../../ledger/accounts';
import { postJournal } from '../../ledger/post-journal';
import { AppError, badRequest, conflict, unauthorized } from '../../lib/errors';
import { requestFingerprint, withIdempotency } from '../../lib/idempotency';
import { inTransaction } from '../../lib/transaction';
import { lastPaymentOf, loadSubscriber, toPayment, toSubscriptionView } from './subscription-view';

export const liveUpgradeNotImplemented = () => new AppError(501, 'live_mode_not_implemented', SUBSCRIPTION_MESSAGES.liveMode);

function demoFlags(app: FastifyInstance) {
  const demo = app.config.demoMode;
  return { simulated: demo, testSource: demo ? 'MVP-Demo' : '', environment: demo ? 'test' : 'production' };
}

export async function upgradeSubscription(
  app: FastifyInstance,
  userId: string,
  input: UpgradeRequest,
  idempotencyKey: string | null,
): Promise<{ status: number; body: UpgradeResponse }> {
  if (!app.config.demoMode) throw liveUpgradeNotImplemented();
  const now = app.now();
  const problems = paymentCardProblems(input.card, { now, demoMode: app.config.demoMode });
  if (problems.length > 0) throw badRequest(problems[0]!.message, problems);
  // docs/rules.md#demo-declines: a demo payment takes a moment; the wait holds no lock.
  await app.adapters.delay('payment');
  // The card's digits never reach the fingerprint that is stored with the key: brand and last 4 do.
  const fingerprintBody = { plan: input.plan, billingCycle: input.billingCycle, card: cardSummary(input.card.number) };
  const work = async (tx: Tx) => ({ status: 200, body: await upgradeInTransaction(app, tx, userId, input) });
  if (idempotencyKey === null) return inTransaction(app.db, work);
  const fingerprint = requestFingerprint({ method: 'POST', route: '/api/subscription/upgrade', body: fingerprintBody });
  const result = await withIdempotency(app.db, { userId, key: idempotencyKey, fingerprint, now }, work);
  return { status: result.status, body: result.body as UpgradeResponse };
}

function cardSummary(number: string): { brand: string | null; last4: string | null } {
  const digits = normaliseCardNumber(number);
  return { brand: detectBrand(digits), last4: /^\d{4,}$/.test(digits) ? last4(digits) : null };
}

async function upgradeInTransaction(app: FastifyInstance, tx: Tx, userId: string, input: UpgradeRequest): Promise<UpgradeResponse> {
  const now = app.now();
  const user = await loadSubscriber(tx, userId, { forUpdate: true });
  // Closed while this request was on its way (its session was checked before the closing
  // committed): a closed account buys nothing (decision 165), and a plan bought now would renew.
  if (user.closedAt) throw unauthorized();
  const from = user.subscription as PlanId;
  // Only moves to a higher tier are sold; the current plan and downgrades are 'Not Available'.
  if (!canUpgrade(from, input.plan)) throw conflict(SUBSCRIPTION_MESSAGES.notAvailable, 'not_available');

  const listPriceCents = planPriceCents(input.plan, input.billingCycle);
  // The payment is for the next consecutive month, which counts towards later discounts; the
  // discount itself is on the current plan's price only, so an upgrade pays the list price.
  const loyaltyMonths = user.loyaltyDiscountMonths + 1;
  const { discountPpm, amountCents } = planPaymentCents({ plan: input.plan, currentPlan: from, priceCents: listPriceCents, loyaltyMonth: loyaltyMonths });
  const card = cardSummary(input.card.number);

  const [payment] = await tx
    .insert(subscriptionPayments)
    .values({
      userId,
      plan: input.plan,
      billingCycle: input.billingCycle,
      listPriceCents,
      discountPpm,
      amountCents,
      cardBrand: card.brand,
      cardLast4: card.last4,
      createdAt: now,
      ...demoFlags(app),
    })
    .returning();
  if (!payment) throw new Error('subscription payment insert returned nothing');
  const journalId = await postJournal(tx, {
    kind: 'subscription',
    userId,
    referenceId: payment.id,
    memo: `${input.plan} ${input.billingCycle}`,
    entries: [
      { accountCode: SYSTEM_ACCOUNTS.fundingSources, amountCents: -amountCents },
      { accountCode: SYSTEM_ACCOUNTS.subscriptionRevenue, amountCents },
    ],
  });
  await tx.update(subscriptionPayments).set({ journalId }).where(eq(subscriptionPayments.id, payment.id));

  const periodEnd = nextBillingDate(now, input.billingCycle);
  const [updated] = await tx
    .update(users)
    .set({
      subscription: input.plan,
      billingCycle: input.billingCycle,
      subscriptionPriceCents: listPriceCents,
      subscriptionUpdated: now,
      currentSubscriptionStart: now,
      subscriptionPeriodEnd: periodEnd,
      cancelAtPeriodEnd: false,
      subscriptionLastCanceledAt: null,
      loyaltyDiscountMonths: loyaltyMonths,
      lastUpdated: now,
    })
    .where(and(eq(users.id, userId), eq(users.subscription, from)))
    .returning();
  if (!updated) throw new Error('user row changed under its lock');

  return {
    success: true,
    message: SUBSCRIPTION_MESSAGES.upgraded(PLANS[input.plan].name),
    subscription: toSubscriptionView(updated, { ...payment, journalId }),
    payment: toPayment({ ...payment, journalId }),
    nextBillingDate: periodEnd.toISOString(),
  };
}

export async function cancelSubscription(app: FastifyInstance, userId: string) {
  return inTransaction(app.db, async (tx) => {
    const now = app.now();
    const user = await loadSubscriber(tx, userId, { forUpdate: true });
    if (user.subscription === 'free') throw conflict(SUBSCRIPTION_MESSAGES.nothingToCancel, 'nothing_to_cancel');
    let updated = user;
    if (!user.cancelAtPeriodEnd) {
      const [row] = await tx
        .update(users)
        .set({
          cancelAtPeriodEnd: true,
          subscriptionLastCanceledAt: now,
          // docs/rules.md#loyalty: cancelling resets the loyalty discount.
          loyaltyDiscountMonths: 0,
          subscriptionUpdated: now,
          lastUpdated: now,
        })
        .where(eq(users.id, userId))
        .returning();
      if (!row) throw new Error('user row vanished under its lock');
      updated = row;
    }
    // A paid period that has already ended (the job has not run yet) ends now.
    if (!updated.subscriptionPeriodEnd || updated.subscriptionPeriodEnd.getTime() <= now.getTime()) {
      updated = await revertToFree(tx, userId, now);
    }
    return { message: SUBSCRIPTION_MESSAGES.cancelled, subscription: toSubscriptionView(updated, await lastPaymentOf(tx, userId)) };
  });
}

/** The end of a cancelled subscription: back to Free, loyalty at zero. */
export async function revertToFree(tx: Tx, userId: string, now: Date) {
  const [row] = await tx
    .update(users)
    .set({
      subscription: 'free',
      billingCycle: null,
      subscriptionPriceCents: 0,
      subscriptionUpdated: now,
      currentSubscriptionStart: null,
      subscriptionPeriodEnd: null,
      cancelAtPeriodEnd: false,
      loyaltyDiscountMonths: 0,
      lastUpdated: now,
    })
    .where(eq(users.id, userId))
    .returning();
  if (!row) throw new Error('user row vanished');
  return row;
}
