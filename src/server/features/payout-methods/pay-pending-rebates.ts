// BNPL rebates (docs/rules.md#bnpl) are owed to the user from the moment the combine completes; they
// stay `pending` until the user has a preferred payout method with a destination registered with
// the payout provider (decision 172: a payout goes only where the provider knows), and are paid to
// it as soon as there is one. Called inside the caller's transaction: adding a payout method (or
// entering the details of a saved one), choosing the preferred one, and completing a combine
// (through the completion hook) all end with this.
//
// `processed` means decided and journaled: the payout itself is a money effect written in the same
// transaction and sent through the payout adapter after the commit (docs/rules.md#outside-effects, decision 030),
// with the rebate's id as its reference, so it is paid once however often the send is retried.
// The caller kicks the drain once its transaction has committed.
import { and, asc, eq, sql } from 'drizzle-orm';
import { isPayoutMethod } from '../../../core/plans';
import type { DbOrTx, Tx } from '../../db/client';
import { payoutMethods, rebates } from '../../db/schema';
import { SYSTEM_ACCOUNTS } from '../../ledger/accounts';
import { postJournal } from '../../ledger/post-journal';
import { effectReference, enqueueEffects } from '../../effects/money-effects';

export type RebatesPaid = { count: number; amountCents: number };

/** A bound on one call's work; anything beyond waits for the next trigger. */
const MAX_REBATES_PER_CALL = 500;

/**
 * `method`: the user's preferred payout method as the caller's transaction has it (every caller
 * holds the user's row locked and has just read or written it), so it is not read again.
 */
export async function payPendingRebates(tx: Tx, userId: string, method: string | null, now: Date): Promise<RebatesPaid> {
  if (!isPayoutMethod(method)) return { count: 0, amountCents: 0 };

  // Claimed with a conditional update, so two transactions can never pay the same rebate twice:
  // the second one's WHERE no longer matches once the first has committed. Each row also brings
  // the method's destination (decision 168), read by the same statement: the payout is sent there
  // even if the method is removed or changed before the drain runs. A preferred method without a
  // destination (saved before decision 168, or without details) reads no row: the rebates stay
  // pending, the user's money kept, until its details are entered (decision 172). The caller's lock
  // on the user row keeps the methods as they are until this transaction commits.
  const destinationOfMethod = sql<string | null>`(select ${payoutMethods.destinationRef} from ${payoutMethods} where ${payoutMethods.userId} = ${userId} and ${payoutMethods.method} = ${method})`;
  const pending = await tx
    .select({ id: rebates.id, destination: sql<string>`${destinationOfMethod}` })
    .from(rebates)
    .where(and(eq(rebates.userId, userId), eq(rebates.status, 'pending'), sql`${destinationOfMethod} is not null`))
    .orderBy(asc(rebates.createdAt))
    .limit(MAX_REBATES_PER_CALL);
  let paid: RebatesPaid = { count: 0, amountCents: 0 };
  for (const { id, destination } of pending) {
    const [claimed] = await tx
      .update(rebates)
      .set({ status: 'processed', processedAt: now, payoutMethod: method })
      .where(and(eq(rebates.id, id), eq(rebates.status, 'pending')))
      .returning({ id: rebates.id, amountCents: rebates.rebateAmountCents });
    if (!claimed) continue;
    // A zero rebate (the provider charged the whole allowance) is settled without money moving.
    if (claimed.amountCents > 0) {
      const journalId = await postJournal(tx, {
        kind: 'rebate_payout',
        userId,
        referenceId: claimed.id,
        memo: `BNPL rebate to ${method}`,
        entries: [
          { accountCode: SYSTEM_ACCOUNTS.rebatesPayable, amountCents: -claimed.amountCents },
          { accountCode: SYSTEM_ACCOUNTS.payouts, amountCents: claimed.amountCents },
        ],
      });
      await tx.update(rebates).set({ journalId }).where(eq(rebates.id, claimed.id));
      await enqueueEffects(tx, [
        { kind: 'rebate_payout', reference: effectReference.rebatePayout(claimed.id), userId, payload: { method, amountCents: claimed.amountCents, rebateId: claimed.id, destination } },
      ]);
    }
    paid = { count: paid.count + 1, amountCents: paid.amountCents + claimed.amountCents };
  }
  return paid;
}

export async function pendingRebatesOf(db: DbOrTx, userId: string): Promise<RebatesPaid> {
  const [row] = await db
    .select({ count: sql<string>`count(*)`, amount: sql<string>`coalesce(sum(${rebates.rebateAmountCents}), 0)` })
    .from(rebates)
    .where(and(eq(rebates.userId, userId), eq(rebates.status, 'pending')));
  return { count: Number(row?.count ?? 0), amountCents: Number(row?.amount ?? 0) };
}
