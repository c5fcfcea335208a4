// The scheduled jobs run on every instance, with no leader (docs/scaling.md): each run must be
// safe next to any number of others. Three apps on one database run every job three times at
// once; every effect happens exactly once.
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, BILLING_PERIOD_DAYS } from '../core/dates';
import { insertFundedCard, insertUser } from '../../tests/helpers/fixtures';
import { createTestApp, type TestApp } from '../../tests/helpers/test-app';
import { createTestDatabase, requireEngine, testEngine, type TestDatabase } from '../../tests/helpers/test-db';
import { cards, journals, subscriptionPayments, users } from './db/schema';
import { checkLedger } from './ledger/check-ledger';
import { scheduledJobs } from './scheduler';

const run = await requireEngine();
const HOUR_MS = 60 * 60 * 1000;

describe.skipIf(!run)(`scheduled jobs on several instances at once (${testEngine()})`, () => {
  let database: TestDatabase;
  let apps: TestApp[] = [];
  const now = new Date();

  beforeAll(async () => {
    database = await createTestDatabase(testEngine(), { poolSize: 12 });
    apps = await Promise.all(Array.from({ length: 3 }, () => createTestApp({ database, now: () => now })));
  });

  afterAll(async () => {
    await Promise.all(apps.map((t) => t.close()));
    await database?.drop();
  });

  it('every job run three times on each of three instances at once: one renewal, one revert, one expiry each', async () => {
    const db = database.db;
    const periodEnd = new Date(now.getTime() - HOUR_MS);
    const due = { subscription: 'premium', billingCycle: 'monthly', subscriptionPriceCents: 999, subscriptionPeriodEnd: periodEnd } as const;
    const renewing = await Promise.all(Array.from({ length: 6 }, () => insertUser(db, due)));
    const cancelling = await Promise.all(Array.from({ length: 3 }, () => insertUser(db, { ...due, cancelAtPeriodEnd: true })));
    const owner = await insertUser(db);
    const expiring = await Promise.all(Array.from({ length: 4 }, () => insertFundedCard(db, owner, 1_000, { validUntil: new Date(now.getTime() - HOUR_MS) })));

    await Promise.all(apps.flatMap(({ app }) => Array.from({ length: 3 }, () => Promise.all(scheduledJobs.map((job) => job.run(app))))));

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

    expect((await checkLedger(db)).problems).toEqual([]);
  });
});
