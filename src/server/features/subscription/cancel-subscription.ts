// POST /api/subscription/cancel: the plan stays until the end of the paid period, then Free; and that
// end itself (revertToFree), for the period-end job and the closing of an account.
import { eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { users } from '../../db/schema';
import { SUBSCRIPTION_MESSAGES } from '../../../contracts/subscription';
import { conflict } from '../../lib/errors';
import { inTransaction } from '../../lib/transaction';
import { lastPaymentOf, loadSubscriber, toSubscriptionView } from './subscription-view';

export async function cancelSubscription(deps: { db: Db; now(): Date }, userId: string) {
  return inTransaction(deps.db, async (tx) => {
    const now = deps.now();
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
