// The scheduled side of decision 163 (the rules are in core/draft-lifetime.ts): unsaved drafts
// idle for an hour are saved for later, and drafts past their 7 days are deleted with their holds
// voided, as the user's own Delete does. Both are safe to run on every instance at once: the save
// is one guarded statement, and the deletion locks the drafts it takes and skips those another
// instance (or a user's request) holds.
import { and, asc, eq, inArray, lt, sql } from 'drizzle-orm';
import { draftLifetimeCutoff, unsavedDraftIdleCutoff } from '../../../core/draft-lifetime';
import type { Db } from '../../db/client';
import { combines } from '../../db/schema';
import type { EffectDrain } from '../../effects/drain';
import { inTransaction } from '../../lib/transaction';
import { deleteLockedDrafts } from './delete-drafts';
import { DRAFT_STATUSES } from './draft-service';

export const DRAFT_LIFETIME_INTERVAL_MS = 5 * 60 * 1000;
/** Drafts deleted per transaction; a run goes on until a batch comes back short. */
const DELETION_BATCH = 200;

export async function settleDrafts(deps: { db: Db; effects: Pick<EffectDrain, 'kick'>; now(): Date }): Promise<{ saved: number; deleted: number }> {
  const now = deps.now();
  const saved = await deps.db
    .update(combines)
    // saved_at is when the user last worked on it, which is what /resume-combine shows as "Saved".
    .set({ status: 'incomplete', savedAt: sql`${combines.updatedAt}` })
    .where(and(eq(combines.status, 'in_progress'), lt(combines.updatedAt, unsavedDraftIdleCutoff(now))))
    .returning({ id: combines.id });

  let deleted = 0;
  for (;;) {
    const batch = await deleteExpiredDrafts(deps.db, draftLifetimeCutoff(now));
    deleted += batch;
    if (batch < DELETION_BATCH) break;
  }
  if (deleted > 0) deps.effects.kick();
  return { saved: saved.length, deleted };
}

async function deleteExpiredDrafts(db: Db, startedBefore: Date): Promise<number> {
  return inTransaction(db, async (tx) => {
    const due = await tx
      .select({ id: combines.id, userId: combines.userId })
      .from(combines)
      .where(and(inArray(combines.status, [...DRAFT_STATUSES]), lt(combines.createdAt, startedBefore)))
      .orderBy(asc(combines.createdAt))
      .limit(DELETION_BATCH)
      .for('update', { skipLocked: true });
    await deleteLockedDrafts(tx, due);
    return due.length;
  });
}
