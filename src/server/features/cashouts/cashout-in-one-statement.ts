// The cash-out as one statement, without an explicit transaction (decision 018). Under contention
// or in a rare case it steps aside for the locked transaction (create-cashout.ts), which decides
// the same things with the same rules (cashout-rules.ts).
//
// The statement debits the card only if the card can pay (a conditional update, as everywhere),
// the Idempotency-Key is not in use, and the user's plan, promo end and saved payout methods are
// still those the fee and the method rules were decided on. Only if the debit happened does it
// write the balanced journal with its transaction row, last_used, and the key with its answer. It
// commits on its own: all of it or none of it.
//
// The saved methods are read with their payout destinations (decision 168), and re-checked with
// them: the payout row carries the chosen method's destination as the debit's statement saw it. A
// method without one is refused by the core before the statement (decision 172); one whose details
// are entered meanwhile changes the facts, so the statement steps aside and a fresh read decides.
//
// The facts it re-checks (plan, promo end, saved methods) come from a hint in the read cache when
// there is one: 1 round trip. Otherwise, or when the statement finds them stale, from a read: 2.
// A stale hint can only cost a retry. Every refusal is decided on a fresh read, which also looks
// the key up first, so a retried request gets its first answer back rather than a refusal.
//
// A concurrent request with the same key that got there first makes this statement's insert of
// the key fail on its primary key (after waiting for that commit), which undoes the debit too; the
// stored answer is then returned.
//
// The payout itself is a money effect (docs/rules.md#outside-effects, decision 030): a row the statement writes
// only with the debit, sent by the drain after the commit. A refused, replayed or raced cash-out
// writes no row and so sends nothing.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { PlanId } from '../../../core/plans';
import type { CreateCashoutResponse } from '../../../contracts/cashouts';
import { namedSqlStatement, placeholderValues, rowsWritten } from '../../db/named-statement';
import { debitCardSql, debitValues } from '../../ledger/card-accounts';
import { JOURNAL_RESULT, journalClauses, journalIdFrom, journalValues, rowsOf, type JournalResultRow } from '../../ledger/post-journal';
import { notFound } from '../../lib/errors';
import { effectsClause, effectsValues, type MoneyEffect } from '../../effects/money-effects';
import { keyFoundOutside, type StoredResponse } from '../../lib/idempotency';
import { isUniqueViolationOf } from '../../lib/transaction';
import { cardRefusal, cashoutResponse, priceCashout, type CashoutInput, type PricedCashout, type SavedDestinations } from './cashout-rules';

const IDEMPOTENCY_PRIMARY_KEY = 'idempotency_keys_user_id_key_pk';

/** What the cash-out's rules, fee and payout depend on, as the statement re-checks it. */
type UserFacts = { plan: PlanId; promoEnd: Date | null; promoEndText: string | null; savedMethods: SavedDestinations };
const factsHintKey = (userId: string) => `cashout-facts:${userId}`;

// The user's active payout methods, each with its payout destination (null when none was
// registered), as one jsonb object: {"ach": "demo_dest_…", "paypal": null}. jsonb equality ignores
// key order, so the read and the write's re-check compare alike.
const SAVED_METHODS = sql`(select coalesce(jsonb_object_agg(pm.method, pm.destination_ref), '{}'::jsonb) from payout_methods pm where pm.user_id = u.id and pm.status = 'active')`;
const KEY_COLUMNS = sql`k.fingerprint as key_fingerprint, k.response_status as key_status, k.response_body as key_body,
  k.created_at < ${sql.placeholder('expiredBefore')}::timestamptz as key_expired`;

type KeyColumns = { key_fingerprint: string | null; key_status: number | null; key_body: unknown; key_expired: boolean | null };

const readStatement = namedSqlStatement(
  'cashout_read',
  () => sql`
    select u.subscription, u.promo_end, u.promo_end::text as promo_end_text, ${SAVED_METHODS} as saved_methods, ${KEY_COLUMNS}
    from users u
    left join idempotency_keys k on k.user_id = u.id and k.key = ${sql.placeholder('key')}::text
    where u.id = ${sql.placeholder('userId')}::uuid`,
);

type ReadRow = KeyColumns & { subscription: string; promo_end: Date | string | null; promo_end_text: string | null; saved_methods: SavedDestinations };

const cardStatement = namedSqlStatement(
  'cashout_card',
  () => sql`select status, frozen, remaining_amount_cents from cards where id = ${sql.placeholder('cardId')}::uuid and user_id = ${sql.placeholder('userId')}::uuid`,
);

// The write, clause by clause: user_facts_unchanged (the plan, promo end and saved methods the
// fee and the method were decided on still hold), existing_key (the Idempotency-Key, if anything
// holds it), debited_card (the conditional debit, only with both of those), the journal's clauses
// (post-journal.ts), method_last_used, stored_answer (the key with its answer) and the payout's
// outbox row, each written only if the debit happened.
const writeStatement = namedSqlStatement(
  'cashout_write',
  () => sql`
    with user_facts_unchanged as (
      select exists (
        select 1 from users u
        where u.id = ${sql.placeholder('userId')}::uuid and u.subscription = ${sql.placeholder('plan')}::text
          and u.promo_end is not distinct from ${sql.placeholder('promoEnd')}::timestamptz
          and ${SAVED_METHODS} = ${sql.placeholder('savedMethods')}::jsonb
      ) as ok
    ),
    existing_key as (select * from idempotency_keys where user_id = ${sql.placeholder('userId')}::uuid and key = ${sql.placeholder('key')}::text),
    debited_card as (${debitCardSql(sql`(select ok from user_facts_unchanged) and not exists (select 1 from existing_key)`)}),
    ${journalClauses(sql`exists (select 1 from debited_card)`)},
    method_last_used as (
      update payout_methods set last_used = ${sql.placeholder('now')}::timestamptz
      where user_id = ${sql.placeholder('userId')}::uuid and method = ${sql.placeholder('payoutMethod')}::text and status = 'active'
        and exists (select 1 from debited_card)
      returning 1
    ),
    stored_answer as (
      insert into idempotency_keys (user_id, key, fingerprint, response_status, response_body)
      select ${sql.placeholder('userId')}::uuid, ${sql.placeholder('key')}::text, ${sql.placeholder('fingerprint')}::text, ${sql.placeholder('responseStatus')}::int,
        jsonb_set(jsonb_set(jsonb_set(jsonb_set(${sql.placeholder('responseBody')}::jsonb,
          '{card,status}', to_jsonb(debited.status)),
          '{card,remainingAmountCents}', to_jsonb(debited.remaining_amount_cents)),
          '{card,amountSpentCents}', to_jsonb(debited.amount_spent_cents)),
          '{cashout,cardLast4}', to_jsonb(debited.last4))
      from debited_card debited
      returning 1
    ),
    ${effectsClause(sql`exists (select 1 from debited_card)`)}
    select (select ok from user_facts_unchanged) as facts_ok, debited.remaining_amount_cents, debited.amount_spent_cents, debited.status, debited.last4,
      ${rowsWritten('stored_answer')} as stored, ${rowsWritten('money_effect_rows')} as effect_count,
      ${KEY_COLUMNS}, ${JOURNAL_RESULT}
    from (select 1) as one left join debited_card debited on true left join existing_key k on true`,
);

type WriteRow = JournalResultRow &
  KeyColumns & {
    facts_ok: boolean;
    remaining_amount_cents: string | number | null;
    amount_spent_cents: string | number | null;
    status: string | null;
    last4: string | null;
    stored: number;
    effect_count: number;
  };

export type OneStatementOutcome =
  /** `payout`: the effect this statement wrote, claimed by it, for `app.effects.carryOut` (decision 140). */
  | { kind: 'answered'; result: StoredResponse & { replayed: boolean }; payout?: MoneyEffect }
  /** Something changed under the statement (nothing was written): try again. */
  | { kind: 'changed' }
  /** A case for the locked transaction: the key is expired and to be reused. */
  | { kind: 'use-transaction' };

type Request = { userId: string; input: CashoutInput; key: string; fingerprint: string; expiredBefore: Date };

/**
 * A test seam: runs after the facts are known and before the statement, so a test can change the
 * world at exactly that moment (cashout-in-one-statement.test.ts). Null outside those tests.
 */
export const cashoutSeam: { beforeStatement: (() => Promise<void>) | null } = { beforeStatement: null };

export async function cashoutInOneStatement(app: FastifyInstance, request: Request): Promise<OneStatementOutcome> {
  const { userId, input, key, fingerprint } = request;
  const cache = app.database.readCache;
  const expiredBefore = request.expiredBefore.toISOString();

  // A fresh read of the facts, with the key first: a live key is answered before any rule.
  const readFresh = async (): Promise<UserFacts | OneStatementOutcome> => {
    const [row] = rowsOf<ReadRow>(await readStatement(app.db, { userId, key, expiredBefore }));
    if (!row) throw notFound('Account not found.');
    const answered = answerFromKey(row, fingerprint);
    if (answered) return answered;
    const facts: UserFacts = {
      plan: row.subscription as PlanId,
      promoEnd: row.promo_end === null ? null : new Date(row.promo_end),
      promoEndText: row.promo_end_text,
      savedMethods: row.saved_methods,
    };
    cache.setHint(factsHintKey(userId), facts);
    return facts;
  };

  let facts: UserFacts | OneStatementOutcome | undefined = cache.hint<UserFacts>(factsHintKey(userId));
  const fromHint = facts !== undefined;
  facts ??= await readFresh();
  if ('kind' in facts) return facts;
  const now = app.now();
  const transactionId = randomUUID();
  const planFrom = (known: UserFacts) =>
    priceCashout(app, { request: input, userId, plan: known.plan, promoEnd: known.promoEnd, savedMethods: known.savedMethods, now, transactionId });
  let priced: PricedCashout;
  try {
    priced = planFrom(facts);
  } catch (refusal) {
    if (!fromHint) throw refusal;
    // A refusal is never decided on a hint.
    facts = await readFresh();
    if ('kind' in facts) return facts;
    priced = planFrom(facts);
  }
  const payout = priced.payout;
  if (cashoutSeam.beforeStatement) await cashoutSeam.beforeStatement();
  // The card's figures in the answer are the debit's own, set by the statement (and below).
  const template = cashoutResponse(priced, { id: input.cardId, last4: '', status: '', remainingAmountCents: 0, amountSpentCents: 0 }, payout.reference);

  const { values: journal, ...expected } = journalValues(priced.journal);
  let written: WriteRow | undefined;
  try {
    [written] = rowsOf<WriteRow>(
      await writeStatement(
        app.db,
        placeholderValues({
          journal,
          debit: debitValues(priced.debit),
          payout: effectsValues([payout], app.effects.leaseSeconds),
          cashout: {
            plan: facts.plan,
            promoEnd: facts.promoEndText,
            savedMethods: JSON.stringify(facts.savedMethods),
            now: now.toISOString(),
            payoutMethod: input.payoutMethod,
            key,
            fingerprint,
            expiredBefore,
            responseStatus: 201,
            responseBody: JSON.stringify(template),
          },
        }),
      ),
    );
  } catch (error) {
    // The same key, a moment earlier: its statement committed first and this one undid itself.
    if (isUniqueViolationOf(error, IDEMPOTENCY_PRIMARY_KEY)) return { kind: 'changed' };
    throw error;
  }
  if (!written) throw new Error('cashoutInOneStatement: the statement returned no row');

  if (written.status === null) {
    if (written.journal_id || Number(written.stored) > 0 || Number(written.effect_count) > 0) {
      throw new Error('cashoutInOneStatement: a journal, a key or a payout was written without its debit');
    }
    const answered = answerFromKey(written, fingerprint);
    if (answered) return answered;
    if (!written.facts_ok) {
      cache.dropHint(factsHintKey(userId));
      return { kind: 'changed' };
    }
    // The card could not pay: say why from a fresh read (the key first: it may be a retry).
    const fresh = await readFresh();
    if ('kind' in fresh) return fresh;
    const [card] = rowsOf<{ status: string; frozen: boolean; remaining_amount_cents: string | number }>(await cardStatement(app.db, { cardId: input.cardId, userId }));
    const refusal = cardRefusal(card && { status: card.status, frozen: card.frozen, remainingAmountCents: Number(card.remaining_amount_cents) }, input.amountCents);
    if (refusal) throw refusal;
    return { kind: 'changed' };
  }

  // Committed: these check what the database already guarantees (the deferred balance trigger,
  // the journal and the key written only with the debit), as alarms.
  journalIdFrom(written, expected);
  if (Number(written.stored) !== 1) throw new Error('cashoutInOneStatement: the debit was written without its Idempotency-Key');
  if (Number(written.effect_count) !== 1) throw new Error('cashoutInOneStatement: the debit was written without its payout');
  const body: CreateCashoutResponse = cashoutResponse(
    priced,
    {
      id: input.cardId,
      last4: written.last4 ?? '',
      status: written.status,
      remainingAmountCents: Number(written.remaining_amount_cents),
      amountSpentCents: Number(written.amount_spent_cents),
    },
    payout.reference,
  );
  return { kind: 'answered', result: { status: 201, body, replayed: false }, payout };
}

/** The outcome a key found in the database calls for, or null when there is none. */
function answerFromKey(row: KeyColumns, fingerprint: string): OneStatementOutcome | null {
  const found = keyFoundOutside({ fingerprint: row.key_fingerprint, status: row.key_status, body: row.key_body, expired: row.key_expired }, fingerprint);
  if (found === null) return null;
  return found === 'use-transaction' ? { kind: 'use-transaction' } : { kind: 'answered', result: found };
}
