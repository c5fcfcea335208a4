// The scheduled jobs run on every instance, with no leader (docs/scaling.md): each run must be
// safe next to any number of others. Three apps on one database run every job three times at
// once; every effect happens exactly once.
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, BILLING_PERIOD_DAYS } from '../core/dates';
import { insertFundedCard, insertUser } from '../../tests/helpers/fixtures';
import { createTestApp, type TestApp } from '../../tests/helpers/test-app';
import { createTestDatabase, type TestDatabase } from '../../tests/helpers/test-db';
import { cards, combineSources, combines, journals, moneyEffects, subscriptionPayments, users } from './db/schema';
import type { Db } from './db/client';
import { checkLedger } from './ledger/check-ledger';
import { scheduledJobs } from './scheduler';

const HOUR_MS = 60 * 60 * 1000;

/** An in-progress draft with one pre-authorised card source (hold id `hold-<draft id>`). */
async function insertDraft(db: Db, userId: string, times: { createdAt: Date; updatedAt: Date }): Promise<string> {
  const [draft] = await db.insert(combines).values({ userId, status: 'in_progress', totalAmountCents: 5_000, baseAmountCents: 5_000, ...times }).returning({ id: combines.id });
  if (!draft) throw new Error('draft insert returned nothing');
  await db.insert(combineSources).values({ combineId: draft.id, userId, position: 0, type: 'credit', provider: 'visa', chargeCents: 5_000, authorizationId: `hold-${draft.id}` });
  return draft.id;
}

describe('scheduled jobs on several instances at once', () => {
  let database: TestDatabase;
  let apps: TestApp[] = [];
  const now = new Date();

  beforeAll(async () => {
    database = await createTestDatabase({ poolSize: 12 });
    apps = await Promise.all(Array.from({ length: 3 }, () => createTestApp({ database, now: () => now })));
  });

  afterAll(async () => {
    await Promise.all(apps.map((t) => t.close()));
    await database?.drop();
  });

  it('every job run three times on each of three instances at once: one renewal, one revert, one expiry (closed once at the processor), one void per old draft each', async () => {
    const db = database.db;
    const periodEnd = new Date(now.getTime() - HOUR_MS);
    const due = { subscription: 'premium', billingCycle: 'monthly', subscriptionPriceCents: 999, subscriptionPeriodEnd: periodEnd } as const;
    const renewing = await Promise.all(Array.from({ length: 6 }, () => insertUser(db, due)));
    const cancelling = await Promise.all(Array.from({ length: 3 }, () => insertUser(db, { ...due, cancelAtPeriodEnd: true })));
    const owner = await insertUser(db);
    const expiring = await Promise.all(
      Array.from({ length: 4 }, (_, n) => insertFundedCard(db, owner, 1_000, { validUntil: new Date(now.getTime() - HOUR_MS), providerRef: `demo_card_expiring_${n}` })),
    );

    // Decision 163: an old draft with a hold, and an unsaved one idle for two hours.
    const oldDraft = await insertDraft(db, owner, { createdAt: addDays(now, -8), updatedAt: addDays(now, -8) });
    const idleDraft = await insertDraft(db, owner, { createdAt: new Date(now.getTime() - 2 * HOUR_MS), updatedAt: new Date(now.getTime() - 2 * HOUR_MS) });

    await Promise.all(apps.flatMap(({ app }) => Array.from({ length: 3 }, () => Promise.all(scheduledJobs.map((job) => job.run(app))))));

    expect(await db.select().from(combines).where(eq(combines.id, oldDraft))).toEqual([]);
    expect(await db.select().from(moneyEffects).where(eq(moneyEffects.reference, `void:hold-${oldDraft}`))).toEqual([expect.objectContaining({ kind: 'void' })]);
    expect(await db.select({ status: combines.status }).from(combines).where(eq(combines.id, idleDraft))).toEqual([{ status: 'incomplete' }]);

    const renewed = await db.select().from(users).where(inArray(users.id, renewing));
    for (const user of renewed) {
      expect(user).toMatchObject({ subscription: 'premium', loyaltyDiscountMonths: 1 });
      expect(user.subscriptionPeriodEnd?.getTime()).toBe(addDays(periodEnd, BILLING_PERIOD_DAYS.monthly).getTime());
    }
    const payments = await db.select().from(subscriptionPayments).where(inArray(subscriptionPayments.userId, renewing));
    expect(payments).toHaveLength(renewing.length);
    expect(new Set(payments.map((p) => p.userId)).size).toBe(renewing.length);
    expect(await db.select().from(journals).where(eq(journals.kind, 'subscription'))).toHaveLength(renewing.length);

    const reverted = await db.select().from(users).where(inArray(users.id, cancelling));
    expect(reverted.map((u) => u.subscription)).toEqual(cancelling.map(() => 'free'));
    expect(await db.select().from(subscriptionPayments).where(inArray(subscriptionPayments.userId, cancelling))).toEqual([]);

    const expired = await db.select({ status: cards.status, remaining: cards.remainingAmountCents }).from(cards).where(inArray(cards.id, expiring));
    expect(expired).toEqual(expiring.map(() => ({ status: 'expired', remaining: 1_000 })));
    // Decision 170: each expired card is closed at the processor once, by one of the instances
    // (the job may have looked before the expiry: one more run each, at once, then settled).
    await Promise.all(apps.map(({ app }) => app.cardStates.sync()));
    const told = apps.flatMap((t) => t.calls.calls).filter((c) => c.op === 'processor.setCardState');
    expect(told.map((c) => [c.reference.split(':')[1], c.reference.split(':')[3], c.outcome]).sort()).toEqual(
      expiring.map((id) => [id, 'closed', 'done']).sort(),
    );

    expect((await checkLedger(db)).problems).toEqual([]);
  });
});
