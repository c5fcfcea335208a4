// Money effects (docs/rules.md#outside-effects, decision 030): what must happen outside our database because a
// transaction committed. The transaction writes them as rows (`money_effects`) beside the change
// that decided them; the drain (drain.ts) carries them out after the commit and retries until the
// outside system confirms. A refused, rolled-back or replayed request therefore leaves no row and
// causes no outside call.
import { sql, type SQL } from 'drizzle-orm';
import type { PayoutMethod } from '../../core/plans';
import type { DbOrTx } from '../db/client';
import { moneyEffects } from '../db/schema';

// A payout carries its destination (decision 168): the payout provider's reference for the
// method's details as the deciding transaction read them, so a method removed or changed before
// the drain runs still pays where the user chose. Null when the method has none (saved without
// details, or a method the user never saved); rows written before decision 168 have no field.
export type MoneyEffect =
  /** A cash-out's payout: the net amount to the user's payout method. */
  | { kind: 'payout'; reference: string; userId: string; payload: { method: PayoutMethod; amountCents: number; transactionId: string; destination: string | null } }
  /** A BNPL rebate paid to the user's preferred payout method. */
  | { kind: 'rebate_payout'; reference: string; userId: string; payload: { method: PayoutMethod; amountCents: number; rebateId: string; destination: string | null } }
  /** A completed combine's hold, captured for the amount the completion charged. */
  | { kind: 'capture'; reference: string; userId: string; payload: { authorizationId: string; amountCents: number; combineId: string } }
  /** A hold given back: its source was removed, its draft deleted. */
  | { kind: 'void'; reference: string; userId: string; payload: { authorizationId: string; combineId: string } };

export type MoneyEffectKind = MoneyEffect['kind'];

// References are what the outside system deduplicates by: one per thing that must happen once.
export const effectReference = {
  cashoutPayout: (transactionId: string) => `cashout:${transactionId}`,
  rebatePayout: (rebateId: string) => `rebate:${rebateId}`,
  capture: (authorizationId: string) => `capture:${authorizationId}`,
  void: (authorizationId: string) => `void:${authorizationId}`,
};

/** A rebate's payout, as the completion and a later payout method both queue it. */
export function rebatePayoutEffect(userId: string, rebateId: string, payout: { method: PayoutMethod; amountCents: number; destination: string }): MoneyEffect {
  return { kind: 'rebate_payout', reference: effectReference.rebatePayout(rebateId), userId, payload: { ...payout, rebateId } };
}

/** Writes effects in the caller's transaction. A reference already written is one effect, not two. */
export async function enqueueEffects(tx: DbOrTx, effects: MoneyEffect[]): Promise<void> {
  if (effects.length === 0) return;
  await tx
    .insert(moneyEffects)
    .values(effects.map((e) => ({ kind: e.kind, reference: e.reference, userId: e.userId, payload: e.payload })))
    .onConflictDoNothing({ target: moneyEffects.reference });
}

/**
 * The effects as a WITH clause (`money_effect_rows`) of a larger statement, written only where
 * `guard` holds (say, only if the debit happened). Lists travel as arrays, so the text is fixed;
 * the placeholders are named effect…, clear of the statement's own.
 *
 * With a lease (`effectsValues(effects, leaseSeconds)`) the rows are written claimed by their
 * writer, as the drain's claim would leave them (one attempt, leased): the writer hands them to
 * `app.effects.carryOut` once its commit is known (decision 140), and no other drain takes them
 * before the lease ends.
 */
export function effectsClause(guard: SQL = sql`true`): SQL {
  const lease = sql`${sql.placeholder('effectLeaseSeconds')}::float8`;
  return sql`money_effect_rows as (
    insert into money_effects (kind, reference, user_id, payload, attempts, next_attempt_at)
    select e.kind, e.reference, e.user_id, e.payload::jsonb, case when ${lease} is null then 0 else 1 end,
      now() + make_interval(secs => coalesce(${lease}, 0))
    from unnest(${sql.placeholder('effectKinds')}::text[], ${sql.placeholder('effectReferences')}::text[], ${sql.placeholder('effectUserIds')}::uuid[],
      ${sql.placeholder('effectPayloads')}::text[]) as e(kind, reference, user_id, payload)
    where ${guard}
    on conflict (reference) do nothing
    returning 1
  )`;
}

/** The placeholders' values of `effectsClause`; given a lease, the rows are written claimed by their writer. */
export function effectsValues(effects: MoneyEffect[], leaseSeconds: number | null = null): Record<string, unknown> {
  return {
    effectLeaseSeconds: leaseSeconds,
    effectKinds: effects.map((e) => e.kind),
    effectReferences: effects.map((e) => e.reference),
    effectUserIds: effects.map((e) => e.userId),
    effectPayloads: effects.map((e) => JSON.stringify(e.payload)),
  };
}
