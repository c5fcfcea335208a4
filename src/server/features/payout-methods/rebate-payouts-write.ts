// The pending rebates' payment written (pay-pending-rebates.ts), in the caller's transaction: one
// statement settles every rebate of the plan and writes its payouts (unclaimed: the caller kicks
// the drain after its commit), then one statement per rebate that moves money writes its journal
// and links it to the rebate. The reader locked the rebates, so each is still pending; a count
// that differs is a bug, and throwing rolls the caller's transaction back.
import { sql } from 'drizzle-orm';
import type { PendingRebatesPlan } from '../../../core/plan-rebate-payouts';
import type { Tx } from '../../db/client';
import { namedSqlStatement, placeholderValues, rowsWritten } from '../../db/named-statement';
import { effectsClause, effectsValues, rebatePayoutEffect, type MoneyEffect } from '../../effects/money-effects';
import { postingsOf } from '../../ledger/accounts';
import { rowsOf } from '../../ledger/post-journal';
import { postRebateJournal } from '../../ledger/rebate-journal';

const settleStatement = namedSqlStatement(
  'rebate_payouts_settle',
  () => sql`
    with settled as (
      update rebates set status = 'processed', processed_at = ${sql.placeholder('now')}::timestamptz, payout_method = ${sql.placeholder('method')}::text
      where id = any(${sql.placeholder('rebateIds')}::uuid[]) and user_id = ${sql.placeholder('userId')}::uuid and status = 'pending'
      returning 1
    ),
    ${effectsClause()}
    select ${rowsWritten('settled')} as settled_count, ${rowsWritten('money_effect_rows')} as effect_count`,
);

export async function writeRebatePayouts(tx: Tx, write: { userId: string; now: Date; plan: PendingRebatesPlan }): Promise<void> {
  const { userId, now, plan } = write;
  if (plan.paid.length === 0) return;
  const effects: MoneyEffect[] = plan.effects.map(({ rebateId, method, amountCents, destination }) => rebatePayoutEffect(userId, rebateId, { method, amountCents, destination }));
  const values = placeholderValues({
    settle: { userId, now: now.toISOString(), method: plan.paid[0]!.payment.method, rebateIds: plan.paid.map((p) => p.rebateId) },
    payouts: effectsValues(effects),
  });
  const [settled] = rowsOf<{ settled_count: number; effect_count: number }>(await settleStatement(tx, values));
  if (Number(settled?.settled_count) !== plan.paid.length || Number(settled?.effect_count) !== effects.length) {
    throw new Error(`writeRebatePayouts: settled ${settled?.settled_count} of ${plan.paid.length} rebates, wrote ${settled?.effect_count} of ${effects.length} payouts`);
  }
  for (const { rebateId, payment } of plan.paid) {
    if (!payment.journal) continue;
    await postRebateJournal(tx, rebateId, { kind: payment.journal.kind, userId, referenceId: rebateId, memo: payment.journal.memo, entries: postingsOf(payment.journal.lines) });
  }
}
