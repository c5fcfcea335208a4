// BNPL rebates paid (docs/rules.md#bnpl): a rebate is owed from the moment its combine completes and
// is paid to the user's preferred payout method once the payout provider knows where that method
// pays (decision 172). One rule for every payment of a rebate, whether the completion pays it at once
// (plan-completion.ts) or it waited, pending, for a payout method (planPendingRebatePayouts): a
// journal from rebates payable to payouts and a payout sent after the commit; a zero rebate (the
// provider charged the whole allowance) is settled without money moving.
import { assertJournalBalanced, type JournalLine } from './money-plan';
import type { PayoutMethod } from './plans';

/** Where rebates are paid: the preferred payout method and the destination the provider registered for it (decision 168). */
export type RebatePayTo = { method: PayoutMethod; destination: string };

export type RebatePayment = RebatePayTo & { journal: { kind: 'rebate_payout'; memo: string; lines: JournalLine[] } | null };

/** A rebate of `amountCents` paid to `payTo`: its journal, or none for a zero rebate. */
export function rebatePayment(amountCents: number, payTo: RebatePayTo): RebatePayment {
  if (!Number.isSafeInteger(amountCents) || amountCents < 0) throw new RangeError(`a rebate is whole cents, zero or more, got ${amountCents}`);
  if (amountCents === 0) return { ...payTo, journal: null };
  const lines: JournalLine[] = [
    { account: { system: 'rebatesPayable' }, amountCents: -amountCents },
    { account: { system: 'payouts' }, amountCents },
  ];
  assertJournalBalanced(lines);
  return { ...payTo, journal: { kind: 'rebate_payout', memo: `BNPL rebate to ${payTo.method}`, lines } };
}

export type PendingRebatesFacts = {
  /** The user's pending rebates, oldest first, as locked by the transaction that pays them. */
  pending: ReadonlyArray<{ id: string; amountCents: number }>;
  /** Null while the user has no preferred payout method with a destination: nothing is paid. */
  payTo: RebatePayTo | null;
};

export type RebatePayout = { kind: 'rebate_payout'; rebateId: string; method: PayoutMethod; amountCents: number; destination: string };

export type PendingRebatesPlan = {
  /** Every rebate settled, each with its payment (a zero one without a journal). */
  paid: Array<{ rebateId: string; amountCents: number; payment: RebatePayment }>;
  /** The payouts to send after the commit: one per rebate that moves money. */
  effects: RebatePayout[];
  total: { count: number; amountCents: number };
};

export function planPendingRebatePayouts(facts: PendingRebatesFacts): PendingRebatesPlan {
  const plan: PendingRebatesPlan = { paid: [], effects: [], total: { count: 0, amountCents: 0 } };
  const { payTo } = facts;
  if (!payTo) return plan;
  for (const { id, amountCents } of facts.pending) {
    const payment = rebatePayment(amountCents, payTo);
    plan.paid.push({ rebateId: id, amountCents, payment });
    if (payment.journal) plan.effects.push({ kind: 'rebate_payout', rebateId: id, method: payTo.method, amountCents, destination: payTo.destination });
    plan.total = { count: plan.total.count + 1, amountCents: plan.total.amountCents + amountCents };
  }
  return plan;
}
