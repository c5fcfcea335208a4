// Payout methods (settings → Payout Methods): add, remove, choose the preferred one. Each change
// is one transaction that locks the user row first (the lock order of every service), so two
// tabs changing methods at once are serialised rather than racing on "who is preferred".
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { payoutNotAllowedMessage } from '../../../core/cashout';
import { payoutDetail, type PayoutDetailInput, type PayTo } from '../../../core/payout-details';
import { isPayoutMethod, isPayoutMethodAllowed, PAYOUT_METHOD_LABELS, PLANS } from '../../../core/plans';
import type { PayoutMethod, PlanId } from '../../../core/plans';
import {
  payoutMethodAdded,
  payoutMethodAlreadyAdded,
  payoutMethodDetailsSaved,
  payoutMethodNotSaved,
  payoutMethodPreferred,
  payoutMethodRemoved,
  type PayoutMethodChange,
  type PayoutMethodsView,
} from '../../../contracts/payout-methods';
import type { Adapters } from '../../adapters';
import { destinationRegistrationReference } from '../../adapters/payouts';
import type { Db, DbOrTx, Tx } from '../../db/client';
import type { EffectDrain } from '../../effects/drain';
import { payoutMethods, users } from '../../db/schema';
import { badRequest, conflict, forbidden, notFound, unauthorized } from '../../lib/errors';
import { limitMoney } from '../../lib/money-limits';
import { inTransaction } from '../../lib/transaction';
import { payPendingRebates, pendingRebatesOf, type RebatesPaid } from './pay-pending-rebates';

// What the changes below take from the app, each only the pieces it uses.
type Writes = { db: Db; now(): Date };
type Kicks = { effects: Pick<EffectDrain, 'kick'> };
type Registers = { db: Db; adapters: Pick<Adapters, 'payouts'> };

type UserRow = { id: string; subscription: string; preferredPayout: string | null };

async function lockUser(tx: Tx, userId: string): Promise<UserRow> {
  const [user] = await tx
    .select({ id: users.id, subscription: users.subscription, preferredPayout: users.preferredPayout, closedAt: users.closedAt })
    .from(users)
    .where(eq(users.id, userId))
    .for('no key update'); // not UPDATE: rows referencing the user take KEY SHARE on it (see combines/complete-combine.ts)
  if (!user) throw notFound('Account not found.');
  // Closed while this request was on its way (decision 165): the closing removed the payout methods.
  if (user.closedAt) throw unauthorized();
  return user;
}

async function savedRows(db: DbOrTx, userId: string) {
  return db.select().from(payoutMethods).where(eq(payoutMethods.userId, userId)).orderBy(asc(payoutMethods.createdAt), asc(payoutMethods.method));
}

export async function viewPayoutMethods(db: DbOrTx, userId: string): Promise<PayoutMethodsView> {
  const [user] = await db.select({ subscription: users.subscription, preferredPayout: users.preferredPayout }).from(users).where(eq(users.id, userId));
  if (!user) throw notFound('Account not found.');
  const plan = user.subscription as PlanId;
  const rows = await savedRows(db, userId);
  return {
    methods: rows.flatMap((row) =>
      isPayoutMethod(row.method)
        ? [
            {
              method: row.method,
              label: PAYOUT_METHOD_LABELS[row.method],
              status: row.status as 'active' | 'inactive',
              lastUsed: row.lastUsed ? row.lastUsed.toISOString() : null,
              createdAt: row.createdAt.toISOString(),
              preferred: row.method === user.preferredPayout,
              allowedByPlan: isPayoutMethodAllowed(plan, row.method),
              detail: row.detail,
              needsDetails: row.destinationRef === null,
            },
          ]
        : [],
    ),
    preferredPayout: isPayoutMethod(user.preferredPayout) ? user.preferredPayout : null,
    allowedMethods: [...PLANS[plan].payoutMethods],
    pendingRebates: await pendingRebatesOf(db, userId),
  };
}

async function answer(tx: Tx, userId: string, message: string, rebatesPaid: RebatesPaid): Promise<PayoutMethodChange> {
  return { ...(await viewPayoutMethods(tx, userId)), message, rebatesPaid };
}

/**
 * Why `method` cannot be added for this user, as the transaction below would refuse it; null when
 * it can. `alreadySaved`: saved with a registered destination (a method saved without one may have
 * its details entered, decision 172).
 */
function addRefusal(user: { subscription: string; closedAt: Date | null } | undefined, method: PayoutMethod, alreadySaved: boolean): Error | null {
  if (!user) return notFound('Account not found.');
  if (user.closedAt) return unauthorized();
  const plan = user.subscription as PlanId;
  if (!isPayoutMethodAllowed(plan, method)) return forbidden(payoutNotAllowedMessage(plan, method), 'payout_method_not_allowed');
  if (alreadySaved) return conflict(payoutMethodAlreadyAdded(method), 'already_added');
  return null;
}

/**
 * Where the money goes, registered with the payout provider (decision 168): after the checks that
 * allow the method (read here without a lock; the transaction checks them again) and before the
 * transaction that saves it, never inside one (docs/rules.md#outside-effects). Only the provider's reference is kept.
 * In live mode the provider answers the spec's "not implemented" (501), and nothing is saved.
 */
async function registerDestination(deps: Registers, userId: string, method: PayoutMethod, payTo: PayTo): Promise<string> {
  const [user] = await deps.db
    .select({
      subscription: users.subscription,
      closedAt: users.closedAt,
      saved: sql<boolean>`exists (select 1 from ${payoutMethods} where ${payoutMethods.userId} = ${userId} and ${payoutMethods.method} = ${method} and ${payoutMethods.destinationRef} is not null)`,
    })
    .from(users)
    .where(eq(users.id, userId));
  const refusal = addRefusal(user, method, user?.saved ?? false);
  if (refusal) throw refusal;
  // Counted only for a registration that will be made: a refused one costs the provider nothing.
  await limitMoney(deps.db, 'payoutDestination', userId);
  const { destinationRef } = await deps.adapters.payouts.registerDestination({ method, payTo, reference: destinationRegistrationReference() });
  return destinationRef;
}

/**
 * docs/rules.md#payout-method-settings: added as active with last_used now; the first one becomes preferred. Where the money
 * goes (`detail`, and for ACH the bank's `routingNumber`, decision 171) is checked, registered with
 * the payout provider (decision 168) and kept masked; it is optional for API clients older than
 * payout details (sending neither: no destination is registered then, and nothing can be paid to the
 * method until its details are entered, decision 172). A routing number without its account
 * number, an ACH account without its routing number, or a routing number for another method is
 * refused (400, naming the field) before anything else.
 *
 * Decision 172: a method already saved without a destination takes the details sent with it
 * (status 200, the method otherwise unchanged) and pays the pending rebates if it is the preferred
 * one; one saved with a destination is `409 already_added`, as before.
 */
export async function addPayoutMethod(
  deps: Writes & Kicks & Registers,
  userId: string,
  method: PayoutMethod,
  input: PayoutDetailInput = {},
): Promise<{ status: 200 | 201; change: PayoutMethodChange }> {
  let detail: string | null = null;
  let destinationRef: string | null = null;
  if (input.detail !== undefined || input.routingNumber !== undefined) {
    const checked = payoutDetail(method, input);
    if (!checked.ok) throw badRequest(checked.message, Object.entries(checked.errors).map(([field, message]) => ({ path: `/${field}`, message })));
    detail = checked.stored;
    destinationRef = await registerDestination(deps, userId, method, checked.payTo);
  }
  const result = await inTransaction(deps.db, async (tx) => {
    const now = deps.now();
    const user = await lockUser(tx, userId);
    const plan = user.subscription as PlanId;
    if (!isPayoutMethodAllowed(plan, method)) throw forbidden(payoutNotAllowedMessage(plan, method), 'payout_method_not_allowed');
    const inserted = await tx
      .insert(payoutMethods)
      .values({ userId, method, status: 'active', lastUsed: now, createdAt: now, detail, destinationRef })
      .onConflictDoNothing()
      .returning({ method: payoutMethods.method });
    if (inserted.length === 0) {
      // Saved already: its details are entered now if it has no destination yet (decision 172).
      // One registered meanwhile (another tab) keeps its own: the registration made for this
      // request is left unused, as after any save that fails.
      const completed = destinationRef === null
        ? []
        : await tx
            .update(payoutMethods)
            .set({ detail, destinationRef })
            .where(and(eq(payoutMethods.userId, userId), eq(payoutMethods.method, method), isNull(payoutMethods.destinationRef)))
            .returning({ method: payoutMethods.method });
      if (completed.length === 0) throw conflict(payoutMethodAlreadyAdded(method), 'already_added');
      await tx.update(users).set({ lastUpdated: now }).where(eq(users.id, userId));
      const paid = await payPendingRebates(tx, userId, user.preferredPayout, now);
      return { status: 200 as const, change: await answer(tx, userId, payoutMethodDetailsSaved(method), paid) };
    }
    const preferred = user.preferredPayout ?? method;
    if (!user.preferredPayout) {
      await tx.update(users).set({ preferredPayout: method, lastUpdated: now }).where(eq(users.id, userId));
    } else {
      await tx.update(users).set({ lastUpdated: now }).where(eq(users.id, userId));
    }
    const paid = await payPendingRebates(tx, userId, preferred, now);
    return { status: 201 as const, change: await answer(tx, userId, payoutMethodAdded(method), paid) };
  });
  afterCommit(deps, result.change);
  return result;
}

/** Rebates paid by the transaction go out through the payout adapter once it has committed. */
function afterCommit(deps: Kicks, change: PayoutMethodChange): PayoutMethodChange {
  if (change.rebatesPaid.count > 0) deps.effects.kick();
  return change;
}

/** docs/rules.md#payout-method-settings: removing the preferred method moves the preference to another one, or clears it. */
export async function removePayoutMethod(deps: Writes, userId: string, method: PayoutMethod): Promise<PayoutMethodChange> {
  return inTransaction(deps.db, async (tx) => {
    const now = deps.now();
    const user = await lockUser(tx, userId);
    const removed = await tx
      .delete(payoutMethods)
      .where(and(eq(payoutMethods.userId, userId), eq(payoutMethods.method, method)))
      .returning({ method: payoutMethods.method });
    if (removed.length === 0) throw notFound(payoutMethodNotSaved(method));
    let preferred = user.preferredPayout;
    if (preferred === method) {
      const plan = user.subscription as PlanId;
      const remaining = (await savedRows(tx, userId)).map((row) => row.method).filter(isPayoutMethod);
      // One the plan still allows first (a rebate should land where the user can also cash out).
      preferred = remaining.find((m) => isPayoutMethodAllowed(plan, m)) ?? remaining[0] ?? null;
    }
    await tx.update(users).set({ preferredPayout: preferred, lastUpdated: now }).where(eq(users.id, userId));
    return answer(tx, userId, payoutMethodRemoved(method), { count: 0, amountCents: 0 });
  });
}

export async function setPreferredPayoutMethod(deps: Writes & Kicks, userId: string, method: PayoutMethod): Promise<PayoutMethodChange> {
  return afterCommit(deps, await inTransaction(deps.db, async (tx) => {
    const now = deps.now();
    const user = await lockUser(tx, userId);
    const plan = user.subscription as PlanId;
    const [saved] = await tx
      .select({ method: payoutMethods.method })
      .from(payoutMethods)
      .where(and(eq(payoutMethods.userId, userId), eq(payoutMethods.method, method)));
    if (!saved) throw notFound(payoutMethodNotSaved(method));
    if (!isPayoutMethodAllowed(plan, method)) throw forbidden(payoutNotAllowedMessage(plan, method), 'payout_method_not_allowed');
    await tx.update(users).set({ preferredPayout: method, lastUpdated: now }).where(eq(users.id, userId));
    const paid = await payPendingRebates(tx, userId, method, now);
    return answer(tx, userId, payoutMethodPreferred(method), paid);
  }));
}
