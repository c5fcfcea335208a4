// Decision 167: the history says whether the launch promo halved a combine's product fee. The
// spec's promo_applied marks only the combine that claimed the spot; the others completed while
// the promo ran had the same discount, and one completed before the claim did not.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app';
import { createTestDatabase } from '../../../../tests/helpers/test-db';
import { insertUser } from '../../../../tests/helpers/fixtures';
import { createCard, registerUser, type ApiUser } from '../../../../tests/helpers/api-client';
import { combineSources, combines } from '../../db/schema';

async function completed(user: ApiUser, baseInput: string): Promise<string> {
  const res = await createCard(user, baseInput);
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as { combine: { id: string } }).combine.id;
}

describe('the launch promo in the history', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('marks the claiming combine and the ones after it as discounted, not the one before', async () => {
    const user = await registerUser(t.app);
    const before = await completed(user, '200');
    const claim = await completed(user, '1000');
    const after = await completed(user, '200');

    const view = async (id: string) => (await user.request('GET', `/api/combines/${id}`)).json() as { promoApplied: boolean; promoDiscount: boolean; sources: { productFeeCents: number }[] };
    expect(await view(before)).toMatchObject({ promoApplied: false, promoDiscount: false });
    expect(await view(claim)).toMatchObject({ promoApplied: true, promoDiscount: true });
    expect(await view(after)).toMatchObject({ promoApplied: false, promoDiscount: true });
    // The flag tells the truth about the fee: the same $200 card paid half the product fee after the claim.
    const fee = async (id: string) => (await view(id)).sources.reduce((sum, s) => sum + s.productFeeCents, 0);
    expect(await fee(after)).toBeLessThan(await fee(before));

    const csv = (await user.request('GET', '/api/history.csv?range=all')).body.trimEnd().split('\r\n');
    const promoColumn = (id: string) => csv.find((line) => line.includes(id))?.split(',').at(-1);
    expect([promoColumn(before), promoColumn(claim), promoColumn(after)]).toEqual(['No', 'Yes', 'Yes']);
  });
});

// The migration's data fix, on combines completed before the column existed.
describe('migration 0016: the promo discount of earlier combines', () => {
  it('marks completed combines within the promo window, and nothing else', async () => {
    const database = await createTestDatabase();
    try {
      const start = new Date('2026-03-01T12:00:00Z');
      const end = new Date('2027-03-01T12:00:00Z');
      const promoUser = await insertUser(database.db, { promo50offFirstYear: true, promoStart: start, promoEnd: end });
      const otherUser = await insertUser(database.db);
      // A combine with one source charged $100.00, whose product fee was `productFeeCents`.
      const combine = async (userId: string, status: string, completedAt: Date | null, productFeeCents = 50, useBoost = false) => {
        const [row] = await database.db.insert(combines).values({ userId, status, completedAt, useBoost }).returning({ id: combines.id });
        await database.db.insert(combineSources).values({ combineId: row!.id, userId, position: 0, type: 'credit', provider: 'visa', chargeCents: 10_000, productFeeCents });
        return row!.id;
      };
      const during = new Date('2026-09-01T00:00:00Z');
      const ids = {
        beforeClaim: await combine(promoUser, 'completed', new Date('2026-02-28T12:00:00Z'), 100),
        claim: await combine(promoUser, 'completed', start),
        during: await combine(promoUser, 'completed', during),
        duringWithBoost: await combine(promoUser, 'completed', during, 0, true),
        duringOnPremiumPlus: await combine(promoUser, 'completed', during, 0),
        afterEnd: await combine(promoUser, 'completed', end, 100),
        draft: await combine(promoUser, 'incomplete', null),
        otherUser: await combine(otherUser, 'completed', during, 100),
      };
      await database.db.execute(sql`alter table combines drop column promo_discount`);
      const migration = readFileSync(new URL('../../../../migrations/0016_combine_promo_discount.sql', import.meta.url), 'utf8');
      for (const statement of migration.split('--> statement-breakpoint')) await database.db.execute(sql.raw(statement));

      const flag = async (id: string) => (await database.db.select({ d: combines.promoDiscount }).from(combines).where(eq(combines.id, id)))[0]?.d;
      const flags = Object.fromEntries(await Promise.all(Object.entries(ids).map(async ([name, id]) => [name, await flag(id)])));
      expect(flags).toEqual({ beforeClaim: false, claim: true, during: true, duringWithBoost: false, duringOnPremiumPlus: false, afterEnd: false, draft: false, otherUser: false });
    } finally {
      await database.drop();
    }
  });
});
