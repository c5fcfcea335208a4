// The scheduled end of a paid period (docs/rules.md#subscriptions, decision 008): a cancelled
// subscription reverts to Free; any other one renews. Demo mode has no real billing, so a renewal
// is a simulated payment priced and journaled by the core as the upgrade's is
// (core/plan-subscription-payment.ts planRenewalPayment), and it adds one loyalty month. Each user is handled in its own short transaction under the user lock
// and every step re-checks its condition, so the job may run on several instances at once.
import { and, asc, eq, lte, ne } from 'drizzle-orm';
import { planRenewalPayment } from '../../../core/plan-subscription-payment';
import type { BillingCycle, PlanId } from '../../../core/plans';
import type { Db } from '../../db/client';
import { subscriptionPayments, users } from '../../db/schema';
import { postingsOf } from '../../ledger/accounts';
import { postJournal } from '../../ledger/post-journal';
import { inTransaction } from '../../lib/transaction';
import { lastPaymentOf, loadSubscriber } from './subscription-view';
import { revertToFree } from './cancel-subscription';

/** Users handled per run; the rest wait for the next run (the job runs every minute). */
const BATCH_SIZE = 200;

export type PeriodEndReport = { reverted: number; renewed: number };

export async function processSubscriptionPeriodEnds(db: Db, now: Date, options: { demoMode: boolean }): Promise<PeriodEndReport> {
  const due = await db
    .select({ id: users.id })
    .from(users)
    .where(and(ne(users.subscription, 'free'), lte(users.subscriptionPeriodEnd, now)))
    .orderBy(asc(users.subscriptionPeriodEnd))
    .limit(BATCH_SIZE);
  const report: PeriodEndReport = { reverted: 0, renewed: 0 };
  for (const { id } of due) {
    const outcome = await inTransaction(db, async (tx) => {
      const user = await loadSubscriber(tx, id, { forUpdate: true });
      if (user.subscription === 'free' || !user.subscriptionPeriodEnd || user.subscriptionPeriodEnd.getTime() > now.getTime()) return 'none';
      const cycle = user.billingCycle as BillingCycle | null;
      // Live mode cannot charge a renewal yet, so a period that ends there ends the plan. A closed
      // account (decision 165) is never charged again, however a paid plan is still on it.
      if (user.cancelAtPeriodEnd || user.closedAt || !options.demoMode || cycle === null) {
        await revertToFree(tx, id, now);
        return 'reverted';
      }
      const renewal = planRenewalPayment({
        subscriber: { plan: user.subscription as PlanId, billingCycle: cycle, loyaltyDiscountMonths: user.loyaltyDiscountMonths, subscriptionPeriodEnd: user.subscriptionPeriodEnd },
        now,
      });
      const previous = await lastPaymentOf(tx, id);
      const [payment] = await tx
        .insert(subscriptionPayments)
        .values({
          userId: id,
          ...renewal.payment,
          // The card itself was never stored; the receipt names the one the user paid with.
          cardBrand: previous?.cardBrand ?? null,
          cardLast4: previous?.cardLast4 ?? null,
          createdAt: now,
          simulated: true,
          testSource: 'MVP-Demo',
          environment: 'test',
        })
        .returning({ id: subscriptionPayments.id });
      if (!payment) throw new Error('renewal payment insert returned nothing');
      const { kind, memo, lines } = renewal.journal;
      const journalId = await postJournal(tx, { kind, userId: id, referenceId: payment.id, memo, entries: postingsOf(lines) });
      await tx.update(subscriptionPayments).set({ journalId }).where(eq(subscriptionPayments.id, payment.id));
      await tx.update(users).set(renewal.subscriber).where(eq(users.id, id));
      return 'renewed';
    });
    if (outcome === 'reverted') report.reverted += 1;
    if (outcome === 'renewed') report.renewed += 1;
  }
  return report;
}
