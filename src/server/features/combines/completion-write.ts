// The completion's writes as one statement (docs/history/performance-log.md, round 7): the card and its ledger
// account, the balanced journal with its transaction rows, the BNPL rebates, the user's counters,
// every source marked captured, the combine itself and, when the answer is final here, the
// Idempotency-Key's answer. It runs either inside the completion's transaction, after the locked
// reads and the checks (complete-combine.ts): a refusal or a failed check after it still rolls it
// all back; or on its own, guarded by the versions of the rows the plan was decided on
// (complete-in-one-statement.ts, decision 151).
//
// One fixed text (lists travel as arrays), built once (db/named-statement.ts); each piece's values
// are merged by placeholderValues, which refuses a name two pieces give. Sibling WITH clauses
// do not see each other's rows, so the card's ledger account starts with the card's balance and the
// journal takes its id from the clause that inserted it (ledger/post-journal.ts). Foreign keys are
// checked at the end of the statement, when every row exists; the journal's balance at commit.
import { sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client';
import { namedSqlStatement, placeholderValues, rowsWritten } from '../../db/named-statement';
import { cardWithAccountClauses, type NewCard } from '../../ledger/card-accounts';
import { JOURNAL_RESULT, journalClauses, journalIdFrom, journalValues, rowsOf, type JournalInput, type JournalResultRow } from '../../ledger/post-journal';
import { effectsClause, effectsValues, type MoneyEffect } from '../../effects/money-effects';
import { storeClause, storedColumn } from '../../lib/idempotency';
import type { SourceRow } from './combine-view';

const p = (name: string) => sql.placeholder(name);

/**
 * Two ways to run the same writes:
 * - `in-transaction`: inside the completion's locked transaction, after its checks; the answer is
 *   stored under the key that transaction claimed first.
 * - `guarded` (decision 151): on its own, without a transaction. It first locks the user and the
 *   combine, and only if both rows are still the versions the plan was decided on (their `xmin`)
 *   and the Idempotency-Key is unused does it write anything, the key with its answer included.
 *   Otherwise it writes nothing and says so (`go` = 0).
 */
export type CompletionWriteMode = 'in-transaction' | 'guarded';

// Row locks with a re-check: under READ COMMITTED a locking read that finds the row changed by a
// transaction that committed meanwhile re-evaluates its WHERE on the newest version, whose xmin
// differs. The user comes first, then the combine: the locked transaction's order.
const GUARD_CLAUSES = sql`
    existing_key as (select 1 from idempotency_keys where user_id = ${p('userId')}::uuid and key = ${p('gKey')}::text),
    locked_user as (
      select id from users
      where id = ${p('userId')}::uuid and xmin = ${p('gUserXmin')}::text::xid and not exists (select 1 from existing_key)
      for no key update
    ),
    locked_combine as (
      select id from combines
      where id = ${p('combineId')}::uuid and user_id = ${p('userId')}::uuid and xmin = ${p('gCombineXmin')}::text::xid
        and exists (select 1 from locked_user)
      for no key update
    ),`;
const GO = sql`exists (select 1 from locked_combine)`;

const GUARDED_STORE = sql`idempotency_store as (
      insert into idempotency_keys (user_id, key, fingerprint, response_status, response_body)
      select ${p('userId')}::uuid, ${p('gKey')}::text, ${p('gFingerprint')}::text, ${p('sStatus')}::int, ${p('sBody')}::jsonb
      where ${GO}
      returning 1
    )`;

/** The statement's text (exported for its plan's test). */
export function completionWriteSql(mode: CompletionWriteMode = 'in-transaction') {
  const guarded = mode === 'guarded';
  const go = guarded ? GO : sql`true`;
  return sql`
    with ${guarded ? GUARD_CLAUSES : sql``}
    ${cardWithAccountClauses(go)},
    ${journalClauses(go, sql`card_account`)},
    rebate_rows as (
      insert into rebates (id, user_id, combine_id, card_id, source_id, transaction_id, bnpl_fee_max_cents, bnpl_fee_actual_cents,
        rebate_amount_cents, status)
      select r.id, ${p('userId')}::uuid, ${p('combineId')}::uuid, (select id from new_card), r.source_id, r.transaction_id, r.fee_max, r.fee_actual,
        r.amount, 'pending'
      from unnest(${p('rebateIds')}::uuid[], ${p('rebateSourceIds')}::uuid[], ${p('rebateTransactionIds')}::text[],
        ${p('rebateFeeMaxes')}::bigint[], ${p('rebateFeeActuals')}::bigint[], ${p('rebateAmounts')}::bigint[])
        as r(id, source_id, transaction_id, fee_max, fee_actual, amount)
      where ${go}
      returning 1
    ),
    user_counters as (
      update users set
        combine_total = ${p('combineTotal')}::int, boosts_available = ${p('boostsAvailable')}::int, boosts_used = ${p('boostsUsed')}::int,
        last_updated = ${p('now')}::timestamptz,
        promo_50off_first_year = promo_50off_first_year or ${p('promoApplied')}::boolean,
        promo_start = case when ${p('promoApplied')}::boolean then ${p('now')}::timestamptz else promo_start end,
        promo_end = case when ${p('promoApplied')}::boolean then ${p('promoEnd')}::timestamptz else promo_end end
      where id = ${p('userId')}::uuid and ${go}
      returning 1
    ),
    captured_sources as (
      update combine_sources s set status = 'captured', processor_fee_cents = v.processor_fee, product_fee_cents = v.product_fee,
        net_cents = v.net, bnpl_fee_max_cents = v.bnpl_fee_max, bnpl_fee_actual_cents = v.bnpl_fee_actual, rebate_cents = v.rebate,
        creation_fee_cents = v.creation_fee
      from unnest(${p('sourceIds')}::uuid[], ${p('processorFees')}::bigint[], ${p('productFees')}::bigint[], ${p('nets')}::bigint[],
        ${p('bnplFeeMaxes')}::bigint[], ${p('bnplFeeActuals')}::bigint[], ${p('rebates')}::bigint[], ${p('creationFees')}::bigint[])
        as v(id, processor_fee, product_fee, net, bnpl_fee_max, bnpl_fee_actual, rebate, creation_fee)
      where s.id = v.id and s.combine_id = ${p('combineId')}::uuid and ${go}
      returning 1
    ),
    completed as (
      update combines set status = 'completed', card_id = (select id from new_card), completed_at = ${p('now')}::timestamptz,
        updated_at = ${p('now')}::timestamptz, current_step = 7, use_boost = ${p('useBoost')}::boolean,
        creation_fee_source_idx = ${p('creationFeeSourceIdx')}::int, card_type = ${p('cardType')}::text, promo_applied = ${p('promoApplied')}::boolean,
        promo_discount = ${p('promoDiscount')}::boolean,
        bnpl_fee_max_cents = ${p('bnplFeeMaxCents')}::bigint, bnpl_fee_actual_cents = ${p('bnplFeeActualCents')}::bigint,
        rebate_id = ${p('rebateId')}::uuid
      where id = ${p('combineId')}::uuid and ${go}
      returning 1
    ),
    ${effectsClause(go)},
    ${guarded ? GUARDED_STORE : storeClause()}
    select ${guarded ? sql`${rowsWritten('locked_combine')} as go, ` : sql``}${JOURNAL_RESULT}, ${rowsWritten('money_effect_rows')} as effect_count, (select id from new_card) as card_id, ${rowsWritten('rebate_rows')} as rebate_count,
      ${rowsWritten('user_counters')} as user_count, ${rowsWritten('captured_sources')} as captured_count,
      ${rowsWritten('completed')} as completed_count, ${storedColumn()}`;
}

const completionWriteStatement = namedSqlStatement('complete_combine_write', () => completionWriteSql('in-transaction'));
const guardedWriteStatement = namedSqlStatement('complete_combine_guarded_write', () => completionWriteSql('guarded'));

type WriteRow = JournalResultRow & {
  card_id: string | null;
  rebate_count: number;
  user_count: number;
  captured_count: number;
  completed_count: number;
  effect_count: number;
  stored: number;
};

export type NewRebate = { id: string; sourceId: string; transactionId: string | null; bnplFeeMaxCents: number; bnplFeeActualCents: number; rebateAmountCents: number };

export type CompletionWrite = {
  userId: string;
  combineId: string;
  now: Date;
  /** The card's row and its placeholders' values (ledger/card-accounts.ts cardWithAccountValues). */
  card: { values: Record<string, unknown>; row: NewCard };
  journal: JournalInput;
  rebates: NewRebate[];
  counters: { combineTotal: number; boostsAvailable: number; boostsUsed: number };
  promoApplied: boolean;
  promoEnd: Date;
  /** The sources with their final figures (status captured). */
  captured: SourceRow[];
  /** The holds to capture once this commits (docs/rules.md#outside-effects), written claimed by this writer (decision 140). */
  effects: MoneyEffect[];
  /** The lease of those claims (`app.effects.leaseSeconds`). */
  effectLeaseSeconds: number;
  combine: { useBoost: boolean; creationFeeSourceIdx: number; cardType: string; promoDiscount: boolean; bnplFeeMaxCents: number; bnplFeeActualCents: number; rebateId: string | null };
  /** The placeholders of the Idempotency-Key's store clause (ClaimInFirstStatement.storeValues). */
  store: Record<string, unknown>;
};

/** Writes the completion in its transaction; returns how many answers it stored (0 or 1) once every row is known to be written. */
export async function writeCompletion(tx: Tx, write: CompletionWrite): Promise<number> {
  const journal = journalValues(write.journal);
  const [row] = rowsOf<WriteRow>(await completionWriteStatement(tx, placeholderValues({ ...writeValues(write, journal.values), answer: write.store })));
  checkWritten(row, write, journal);
  return row!.stored;
}

/** What the guarded write re-checks, and the key it stores the answer under. */
export type CompletionGuard = { userXmin: string; combineXmin: string; key: string; fingerprint: string; answer: { status: number; body: unknown } };

/**
 * The guarded write (decision 151), committed on its own: true when it wrote the completion with
 * its key and answer, false when it wrote nothing (the user or the combine changed since they
 * were read, or the key is in use). A concurrent request with the same key makes it throw the
 * key's unique violation, after that request committed; nothing of this one is written then either.
 */
export async function writeCompletionGuarded(db: DbOrTx, write: Omit<CompletionWrite, 'store'>, guard: CompletionGuard): Promise<boolean> {
  const journal = journalValues(write.journal);
  const store = {
    gUserXmin: guard.userXmin,
    gCombineXmin: guard.combineXmin,
    gKey: guard.key,
    gFingerprint: guard.fingerprint,
    sStatus: guard.answer.status,
    sBody: JSON.stringify(guard.answer.body),
  };
  const [row] = rowsOf<WriteRow & { go: number }>(await guardedWriteStatement(db, placeholderValues({ ...writeValues(write, journal.values), answer: store })));
  if (!row) throw new Error('the guarded completion returned no row');
  if (row.go === 0) {
    if (row.journal_id || row.card_id || row.user_count || row.completed_count || row.captured_count || row.effect_count || row.stored) {
      throw new Error('the guarded completion wrote rows without its locks');
    }
    return false;
  }
  // Committed: these are alarms for what the locks and the statement already guarantee.
  checkWritten(row, write, journal);
  if (row.stored !== 1) throw new Error('the guarded completion was written without its Idempotency-Key');
  return true;
}

function writeValues(write: Omit<CompletionWrite, 'store'>, journal: Record<string, unknown>): Record<string, Record<string, unknown>> {
  const { card, captured, rebates } = write;
  return {
    card: card.values,
    journal,
    captures: effectsValues(write.effects, write.effectLeaseSeconds),
    completion: {
      userId: write.userId,
      combineId: write.combineId,
      now: write.now.toISOString(),
      promoEnd: write.promoEnd.toISOString(),
      promoApplied: write.promoApplied,
      ...write.counters,
      ...write.combine,
      rebateIds: rebates.map((r) => r.id),
      rebateSourceIds: rebates.map((r) => r.sourceId),
      rebateTransactionIds: rebates.map((r) => r.transactionId),
      rebateFeeMaxes: rebates.map((r) => r.bnplFeeMaxCents),
      rebateFeeActuals: rebates.map((r) => r.bnplFeeActualCents),
      rebateAmounts: rebates.map((r) => r.rebateAmountCents),
      sourceIds: captured.map((s) => s.id),
      processorFees: captured.map((s) => s.processorFeeCents),
      productFees: captured.map((s) => s.productFeeCents),
      nets: captured.map((s) => s.netCents),
      bnplFeeMaxes: captured.map((s) => s.bnplFeeMaxCents),
      bnplFeeActuals: captured.map((s) => s.bnplFeeActualCents),
      rebates: captured.map((s) => s.rebateCents),
      creationFees: captured.map((s) => s.creationFeeCents),
    },
  };
}

// Each count is a row the answer is built from: a short one is a bug. In the transaction, throwing
// rolls it all back.
function checkWritten(row: WriteRow | undefined, write: Omit<CompletionWrite, 'store'>, journal: ReturnType<typeof journalValues>): asserts row is WriteRow {
  journalIdFrom(row, journal);
  if (row?.card_id !== write.card.row.id) throw new Error('the completion wrote no card');
  if (row.completed_count !== 1 || row.user_count !== 1) throw new Error('the completion did not update its combine and user');
  if (row.captured_count !== write.captured.length) throw new Error('source capture updated fewer rows than the combine has sources');
  if (row.rebate_count !== write.rebates.length) throw new Error('the completion wrote fewer rebates than it owes');
  if (row.effect_count !== write.effects.length) throw new Error('the completion wrote fewer captures than it has holds');
}
