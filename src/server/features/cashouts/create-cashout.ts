// Cash out: money leaves a card for a payout method (docs/rules.md#cashout-fee,
// docs/rules.md#payout-methods-by-plan), as every money operation does (money/run-money-operation.ts):
// the facts (read with versions first, under locks when anything contends) → the core's decision
// → one writer → the payout, after the commit.
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { PlanId } from '../../../core/plans';
import type { CreateCashoutResponse } from '../../../contracts/cashouts';
import type { Adapters } from '../../adapters';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { namedSqlStatement, namedStatement } from '../../db/named-statement';
import { users } from '../../db/schema';
import { rowsOf } from '../../ledger/post-journal';
import type { EffectDrain } from '../../effects/drain';
import type { CashoutFacts } from '../../../core/plan-cashout';
import { liveModeNotImplemented, notFound } from '../../lib/errors';
import { claimClause, claimedColumn, requestFingerprint } from '../../lib/idempotency';
import { runMoneyOperation, type Read, type ReadGuard } from '../../money/run-money-operation';
import { decideCashout, type CashoutInput, type SavedDestinations } from './cashout-rules';
import { writeCashout } from './cashout-write';

export { CARD_FROZEN_MESSAGE, CARD_NOT_CASHABLE_MESSAGE, CARD_NOT_FOUND_MESSAGE, CASHOUT_CARD_STATUSES, methodNotSavedMessage, toCashout } from './cashout-rules';
export type { CashoutInput } from './cashout-rules';

type Deps = { db: Db; effects: EffectDrain; adapters: Pick<Adapters, 'delay'>; config: Pick<Config, 'demoMode'>; now(): Date };

export async function createCashout(deps: Deps, userId: string, input: CashoutInput, key: string): Promise<{ status: number; body: CreateCashoutResponse; replayed: boolean }> {
  // docs/rules.md#live-mode: live cash-outs are not built; refuse before anything is read or written.
  if (!deps.config.demoMode) throw liveModeNotImplemented();
  // Spec: the cash-out takes about 2 s in demo mode. The wait holds no lock and no connection.
  await deps.adapters.delay('cashout');
  const now = deps.now();
  const request = { userId, key, fingerprint: requestFingerprint({ method: 'POST', route: '/api/cashouts', body: input }), now };
  const transactionId = randomUUID();
  const answer = await runMoneyOperation(deps, request, {
    versions: true,
    read: (guard) => readCashoutFacts(guard, userId, input, now),
    decide: (facts) => decideCashout({ ...facts, userId, transactionId, demoMode: deps.config.demoMode }),
    write: writeCashout,
  });
  return { status: answer.status, body: answer.body as CreateCashoutResponse, replayed: answer.replayed };
}

// The user's plan and promo, under a share lock, with the key's claim: concurrent cash-outs of the
// same user do not wait for each other here, and whatever changes the plan or the payout methods
// locks the user row first, so neither can change under this cash-out once the lock is held.
const userStatement = namedStatement('cashout_user', (db) =>
  db
    .with(claimClause(db))
    .select({ subscription: users.subscription, promoEnd: users.promoEnd, claimed: claimedColumn() })
    .from(users)
    .where(eq(users.id, sql.placeholder('userId')))
    .for('share'),
);

// The card, locked for its debit, and the saved payout methods with their destinations (decision
// 168), in one statement after the user's lock: a statement sees the database as it was when it
// began, so read with that lock, they could be those a method change replaced while this waited.
const cardAndMethodsStatement = namedSqlStatement(
  'cashout_card_and_methods',
  () => sql`
    with locked_card as (
      select status, frozen, remaining_amount_cents, amount_spent_cents, last4 from cards
      where id = ${sql.placeholder('cardId')}::uuid and user_id = ${sql.placeholder('userId')}::uuid
      for no key update
    )
    select
      (select coalesce(jsonb_object_agg(pm.method, pm.destination_ref), '{}'::jsonb) from payout_methods pm
        where pm.user_id = ${sql.placeholder('userId')}::uuid and pm.status = 'active') as saved,
      card.status, card.frozen, card.remaining_amount_cents, card.amount_spent_cents, card.last4
    from (select 1) as one left join locked_card card on true`,
);
type CardAndMethodsRow = { saved: SavedDestinations; status: string | null; frozen: boolean; remaining_amount_cents: string; amount_spent_cents: string; last4: string };

// With versions: the same facts in one statement, without a lock or a claim, and whether the key
// is known at all (a retry, one in flight or an expired one: the lock guard sorts them out). The
// writer re-checks what the decision used (cashout-write.ts).
const unlockedStatement = namedSqlStatement(
  'cashout_read_versions',
  () => sql`
    select u.subscription, floor(extract(epoch from u.promo_end) * 1000)::float8 as promo_end_ms, u.xmin::text as user_version,
      exists (select 1 from idempotency_keys k where k.user_id = u.id and k.key = ${sql.placeholder('key')}::text) as key_known,
      (select coalesce(jsonb_object_agg(pm.method, pm.destination_ref), '{}'::jsonb) from payout_methods pm
        where pm.user_id = u.id and pm.status = 'active') as saved,
      card.status, card.frozen, card.remaining_amount_cents, card.amount_spent_cents, card.last4
    from users u left join cards card on card.id = ${sql.placeholder('cardId')}::uuid and card.user_id = u.id
    where u.id = ${sql.placeholder('userId')}::uuid`,
);
// A timestamp comes back from a hand-written statement as text; in milliseconds it is a Date's.
type UnlockedRow = CardAndMethodsRow & { subscription: string; promo_end_ms: number | null; user_version: string; key_known: boolean };
/** The facts, and with versions the version of the user's row they were read from. */
type ReadFacts = CashoutFacts & { userVersion: string | null };

async function readCashoutFacts(guard: ReadGuard, userId: string, input: CashoutInput, now: Date): Promise<Read<ReadFacts>> {
  if (guard.kind === 'versions') {
    const [row] = rowsOf<UnlockedRow>(await unlockedStatement(guard.db, { userId, cardId: input.cardId, key: guard.key }));
    if (!row || row.key_known) return { claimed: false };
    const user = { subscription: row.subscription, promoEnd: row.promo_end_ms === null ? null : new Date(row.promo_end_ms) };
    return { claimed: true, facts: { ...factsOf(user, row, input, now), userVersion: row.user_version } };
  }
  // Lock order everywhere: the user, then cards.
  const [user] = await userStatement(guard.tx, { userId, ...guard.claim });
  if (!user) throw notFound('Account not found.');
  if (user.claimed === 0) return { claimed: false };
  const [row] = rowsOf<CardAndMethodsRow>(await cardAndMethodsStatement(guard.tx, { userId, cardId: input.cardId }));
  return { claimed: true, facts: { ...factsOf(user, row, input, now), userVersion: null } };
}

function factsOf(user: { subscription: string; promoEnd: Date | null }, row: CardAndMethodsRow | undefined, input: CashoutInput, now: Date): CashoutFacts {
  const card = row?.status
    ? { status: row.status, frozen: row.frozen, remainingAmountCents: Number(row.remaining_amount_cents), amountSpentCents: Number(row.amount_spent_cents), last4: row.last4 }
    : null;
  return { request: input, plan: user.subscription as PlanId, promoEnd: user.promoEnd, savedMethods: row?.saved ?? {}, card, now };
}
