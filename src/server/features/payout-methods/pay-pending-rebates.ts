// BNPL rebates (docs/rules.md#bnpl) are owed to the user from the moment the combine completes; they
// stay `pending` until the user has a preferred payout method with a destination registered with
// the payout provider (decision 172: a payout goes only where the provider knows), and are paid to
// it as soon as there is one: when a payout method is added, its details are entered or it is
// chosen as the preferred one, inside that change's transaction, which holds the user's lock. (A
// completion pays its own rebates at once when it can, by the same rule: core/plan-rebate-payouts.ts.)
//
// Facts (the pending rebates, locked, and where they are paid) → the core's plan → the write.
// `processed` means decided and journaled: the payout itself is a money effect written in the same
// transaction and sent through the payout adapter after the commit (docs/rules.md#outside-effects,
// decision 030), with the rebate's id as its reference, so it is paid once however often the send
// is retried. The caller kicks the drain once its transaction has committed.
import { and, asc, eq, isNotNull, sql } from 'drizzle-orm';
import { planPendingRebatePayouts, type PendingRebatesFacts } from '../../../core/plan-rebate-payouts';
import { assertWriteSetHolds } from '../../../core/write-set';
import { writeSetOfRebatePayouts } from '../../../core/write-set-of';
import { isPayoutMethod } from '../../../core/plans';
import type { DbOrTx, Tx } from '../../db/client';
import { payoutMethods, rebates } from '../../db/schema';
import { writeRebatePayouts } from './rebate-payouts-write';

export type RebatesPaid = { count: number; amountCents: number };

/** A bound on one call's work; anything beyond waits for the next trigger. */
const MAX_REBATES_PER_CALL = 500;

/**
 * `method`: the user's preferred payout method as the caller's transaction has it (every caller
 * holds the user's row locked and has just read or written it), so it is not read again.
 */
export async function payPendingRebates(tx: Tx, userId: string, method: string | null, now: Date): Promise<RebatesPaid> {
  const facts = await readPendingRebates(tx, userId, method);
  const plan = planPendingRebatePayouts(facts);
  // Not a request of its own (it runs in its caller's transaction), so not through the pipeline:
  // its write set is held to the same rules here.
  assertWriteSetHolds(writeSetOfRebatePayouts(plan));
  await writeRebatePayouts(tx, { userId, now, plan });
  return plan.total;
}

/**
 * Where the rebates go: the method's destination (decision 168), read after the user's lock, which
 * whatever changes the payout methods takes first; the payout is sent there even if the method is
 * removed or changed before the drain runs. None (saved before decision 168, or without details):
 * the rebates stay pending, the user's money kept, until its details are entered (decision 172),
 * and they are not read. The pending rebates are locked, so the plan is on what is pending now:
 * a rebate another transaction settled meanwhile is not read once its lock is released.
 */
async function readPendingRebates(tx: Tx, userId: string, method: string | null): Promise<PendingRebatesFacts> {
  if (!isPayoutMethod(method)) return { pending: [], payTo: null };
  const [saved] = await tx
    .select({ destination: payoutMethods.destinationRef })
    .from(payoutMethods)
    .where(and(eq(payoutMethods.userId, userId), eq(payoutMethods.method, method), isNotNull(payoutMethods.destinationRef)));
  if (!saved?.destination) return { pending: [], payTo: null };
  const pending = await tx
    .select({ id: rebates.id, amountCents: rebates.rebateAmountCents })
    .from(rebates)
    .where(and(eq(rebates.userId, userId), eq(rebates.status, 'pending')))
    .orderBy(asc(rebates.createdAt))
    .limit(MAX_REBATES_PER_CALL)
    .for('no key update');
  return { pending, payTo: { method, destination: saved.destination } };
}

export async function pendingRebatesOf(db: DbOrTx, userId: string): Promise<RebatesPaid> {
  const [row] = await db
    .select({ count: sql<string>`count(*)`, amount: sql<string>`coalesce(sum(${rebates.rebateAmountCents}), 0)` })
    .from(rebates)
    .where(and(eq(rebates.userId, userId), eq(rebates.status, 'pending')));
  return { count: Number(row?.count ?? 0), amountCents: Number(row?.amount ?? 0) };
}
