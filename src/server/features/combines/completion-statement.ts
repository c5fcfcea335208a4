// The completion's one statement (completion-write.ts carries it out): the card and its ledger
// account, the balanced journal with its transaction rows, the BNPL rebates, the user's counters,
// every source marked captured, the combine itself, the outbox's rows (claimed by the writer,
// decision 140), the `combine.completed` and `card.created` events (decision 191) and the
// Idempotency-Key's answer.
//
// One fixed text (lists travel as arrays), built once (db/named-statement.ts); each piece's values
// are merged by placeholderValues, which refuses a name two pieces give. Sibling WITH clauses
// do not see each other's rows, so the card's ledger account starts with the card's balance and the
// journal takes its id from the clause that inserted it (ledger/post-journal.ts). Foreign keys are
// checked at the end of the statement, when every row exists; the journal's balance at commit.
import { sql } from 'drizzle-orm';
import { namedSqlStatement, rowsWritten } from '../../db/named-statement';
import { effectsClause } from '../../effects/money-effects';
import { eventsClause } from '../../events/events';
import { cardWithAccountClauses } from '../../ledger/card-accounts';
import { JOURNAL_RESULT, journalClauses } from '../../ledger/post-journal';
import { storeClause, storedColumn } from '../../lib/idempotency';

const p = (name: string) => sql.placeholder(name);

/** The statement's text (exported for its plan's test). */
export function completionWriteSql() {
  return sql`
    with ${cardWithAccountClauses()},
    ${journalClauses(undefined, sql`card_account`)},
    rebate_rows as (
      insert into rebates (id, user_id, combine_id, card_id, source_id, transaction_id, bnpl_fee_max_cents, bnpl_fee_actual_cents,
        rebate_amount_cents, status, payout_method, processed_at)
      select r.id, ${p('userId')}::uuid, ${p('combineId')}::uuid, (select id from new_card), r.source_id, r.transaction_id, r.fee_max, r.fee_actual,
        r.amount, r.status, r.payout_method, case when r.status = 'processed' then ${p('now')}::timestamptz end
      from unnest(${p('rebateIds')}::uuid[], ${p('rebateSourceIds')}::uuid[], ${p('rebateTransactionIds')}::text[],
        ${p('rebateFeeMaxes')}::bigint[], ${p('rebateFeeActuals')}::bigint[], ${p('rebateAmounts')}::bigint[], ${p('rebateStatuses')}::text[],
        ${p('rebatePayoutMethods')}::text[])
        as r(id, source_id, transaction_id, fee_max, fee_actual, amount, status, payout_method)
      returning 1
    ),
    user_counters as (
      update users set
        combine_total = ${p('combineTotal')}::int, boosts_available = ${p('boostsAvailable')}::int, boosts_used = ${p('boostsUsed')}::int,
        last_updated = ${p('now')}::timestamptz,
        promo_50off_first_year = promo_50off_first_year or ${p('promoApplied')}::boolean,
        promo_start = case when ${p('promoApplied')}::boolean then ${p('now')}::timestamptz else promo_start end,
        promo_end = case when ${p('promoApplied')}::boolean then ${p('promoEnd')}::timestamptz else promo_end end
      where id = ${p('userId')}::uuid
      returning 1
    ),
    captured_sources as (
      update combine_sources s set status = 'captured', processor_fee_cents = v.processor_fee, product_fee_cents = v.product_fee,
        net_cents = v.net, bnpl_fee_max_cents = v.bnpl_fee_max, bnpl_fee_actual_cents = v.bnpl_fee_actual, rebate_cents = v.rebate,
        creation_fee_cents = v.creation_fee
      from unnest(${p('sourceIds')}::uuid[], ${p('processorFees')}::bigint[], ${p('productFees')}::bigint[], ${p('nets')}::bigint[],
        ${p('bnplFeeMaxes')}::bigint[], ${p('bnplFeeActuals')}::bigint[], ${p('rebates')}::bigint[], ${p('creationFees')}::bigint[])
        as v(id, processor_fee, product_fee, net, bnpl_fee_max, bnpl_fee_actual, rebate, creation_fee)
      where s.id = v.id and s.combine_id = ${p('combineId')}::uuid
      returning 1
    ),
    completed as (
      update combines set status = 'completed', card_id = (select id from new_card), completed_at = ${p('now')}::timestamptz,
        updated_at = ${p('now')}::timestamptz, current_step = 7, use_boost = ${p('useBoost')}::boolean,
        creation_fee_source_idx = ${p('creationFeeSourceIdx')}::int, card_type = ${p('cardType')}::text, promo_applied = ${p('promoApplied')}::boolean,
        promo_discount = ${p('promoDiscount')}::boolean,
        bnpl_fee_max_cents = ${p('bnplFeeMaxCents')}::bigint, bnpl_fee_actual_cents = ${p('bnplFeeActualCents')}::bigint,
        rebate_id = ${p('rebateId')}::uuid
      where id = ${p('combineId')}::uuid
      returning 1
    ),
    ${effectsClause()},
    ${eventsClause()},
    ${storeClause()}
    select ${JOURNAL_RESULT}, ${rowsWritten('money_effect_rows')} as effect_count, ${rowsWritten('event_rows')} as event_count, (select id from new_card) as card_id, ${rowsWritten('rebate_rows')} as rebate_count,
      ${rowsWritten('user_counters')} as user_count, ${rowsWritten('captured_sources')} as captured_count,
      ${rowsWritten('completed')} as completed_count, ${storedColumn()}`;
}

export const completionWriteStatement = namedSqlStatement('complete_combine_write', completionWriteSql);
