// Cash out: money leaves a card for a payout method (docs/rules.md#cashout-fee,
// docs/rules.md#payout-methods-by-plan), as every money operation does (money/run-money-operation.ts):
// the facts read under locks → the core's decision → one writer → the payout, after the commit.
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { PlanId } from '../../../core/plans';
import type { CreateCashoutResponse } from '../../../contracts/cashouts';
import type { Adapters } from '../../adapters';
import type { Config } from '../../config';
import type { Db, Tx } from '../../db/client';
import { namedSqlStatement, namedStatement } from '../../db/named-statement';
import { users } from '../../db/schema';
import { rowsOf } from '../../ledger/post-journal';
import type { EffectDrain } from '../../effects/drain';
import type { CashoutFacts } from '../../../core/plan-cashout';
import { liveModeNotImplemented, notFound } from '../../lib/errors';
import { claimClause, claimedColumn, requestFingerprint } from '../../lib/idempotency';
import { runMoneyOperation, type Read } from '../../money/run-money-operation';
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
    read: (tx, claim) => readCashoutFacts(tx, userId, input, claim, now),
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

async function readCashoutFacts(tx: Tx, userId: string, input: CashoutInput, claim: Record<string, unknown>, now: Date): Promise<Read<CashoutFacts>> {
  // Lock order everywhere: the user, then cards.
  const [user] = await userStatement(tx, { userId, ...claim });
  if (!user) throw notFound('Account not found.');
  if (user.claimed === 0) return { claimed: false };
  const [row] = rowsOf<CardAndMethodsRow>(await cardAndMethodsStatement(tx, { userId, cardId: input.cardId }));
  const card = row?.status
    ? { status: row.status, frozen: row.frozen, remainingAmountCents: Number(row.remaining_amount_cents), amountSpentCents: Number(row.amount_spent_cents), last4: row.last4 }
    : null;
  return { claimed: true, facts: { request: input, plan: user.subscription as PlanId, promoEnd: user.promoEnd, savedMethods: row?.saved ?? {}, card, now } };
}
