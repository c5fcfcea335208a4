// Drafts deleted by the server rather than by the user's Delete: those past their 7 days
// (decision 163) and every draft of an account being closed (decision 165). As with the user's
// Delete, the rows go and a void for every hold they made is written with the delete, carried out
// after the commit (docs/rules.md#outside-effects).
import { and, eq, inArray } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { combineSources, combines } from '../../db/schema';
import { enqueueEffects } from '../../effects/money-effects';
import { DRAFT_STATUSES, voidEffects } from './draft-service';

/** Deletes drafts the caller's transaction has locked, with the voids of their holds. */
export async function deleteLockedDrafts(tx: Tx, drafts: ReadonlyArray<{ id: string; userId: string }>): Promise<void> {
  if (drafts.length === 0) return;
  const ids = drafts.map((d) => d.id);
  const sources = await tx
    .select({ combineId: combineSources.combineId, authorizationId: combineSources.authorizationId, bnplTransactionId: combineSources.bnplTransactionId })
    .from(combineSources)
    .where(inArray(combineSources.combineId, ids));
  await tx.delete(combines).where(inArray(combines.id, ids));
  await enqueueEffects(
    tx,
    drafts.flatMap((draft) => voidEffects(draft.userId, draft.id, sources.filter((s) => s.combineId === draft.id))),
  );
}

/**
 * Deletes every draft of the user in the caller's transaction; returns how many went. They are
 * locked first: a completion already writing one finishes first (and its card is then seen by the
 * caller), and one that comes after finds its draft gone and writes nothing.
 */
export async function deleteDraftsOf(tx: Tx, userId: string): Promise<number> {
  const drafts = await tx
    .select({ id: combines.id, userId: combines.userId })
    .from(combines)
    .where(and(eq(combines.userId, userId), inArray(combines.status, [...DRAFT_STATUSES])))
    .for('update');
  await deleteLockedDrafts(tx, drafts);
  return drafts.length;
}
