// The wizard API's concurrency claims, proven with real concurrent requests, run truly in parallel on a
// connection pool.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app';
import { createTestDatabase } from '../../../../tests/helpers/test-db';
import { addSource, completeWithQuote, registerUser, startCombine, TEST_MASTERCARD, TEST_VISA } from '../../../../tests/helpers/api-client';
import { cards, combines, journals, systemPromos, users } from '../../db/schema';
import { checkLedger } from '../../ledger/check-ledger';

describe('combine concurrency', () => {
  let t: TestApp;
  beforeAll(async () => {
    const database = await createTestDatabase({ poolSize: 30 });
    t = await createTestApp({ database });
  });
  afterAll(async () => {
    if (t) expect((await checkLedger(t.database.db)).problems).toEqual([]);
    await t?.app.close();
    await t?.database.drop();
  });

  it('150 users complete $1,000 cards at once with 100 spots: exactly 100 promos, counter at 100', async () => {
    // Prepare 150 funded drafts (sequentially: this is setup, not the claim under test).
    const prepared = [];
    for (let i = 0; i < 150; i += 1) {
      const user = await registerUser(t.app);
      const combine = await startCombine(user, '1000', '0');
      const added = await addSource(user, combine.id, { chargeCents: combine.funding.suggestedChargeCents.card });
      expect(added.statusCode).toBe(201);
      const quote = (await user.request('POST', `/api/combines/${combine.id}/quote`, { useBoost: false, creationFeeSourceIdx: -1, cardType: 'general' })).json();
      expect(quote.promoClaim).toBe(true);
      prepared.push({ user, combineId: combine.id, quote });
    }
    const results = await Promise.all(
      prepared.map(({ user, combineId, quote }) =>
        user.request(
          'POST',
          `/api/combines/${combineId}/complete`,
          { useBoost: false, creationFeeSourceIdx: -1, cardType: 'general', expected: { cardAmountCents: quote.cardAmountCents, totalChargedCents: quote.totalChargedCents, productFeeCents: quote.productFeeCents } },
          { 'idempotency-key': randomUUID() },
        ),
      ),
    );
    const statuses = results.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 201)).toHaveLength(100);
    // The other 50 reviewed a discounted quote that is no longer on offer: nothing charged.
    expect(results.filter((r) => r.statusCode === 409).every((r) => r.json().error.code === 'quote_changed')).toBe(true);
    expect(statuses.filter((s) => s === 409)).toHaveLength(50);
    const [counter] = await t.database.db.select().from(systemPromos);
    expect(counter?.first100PromoClaimed).toBe(100);
    const promoUsers = await t.database.db.select({ n: sql<number>`count(*)::int` }).from(users).where(eq(users.promo50offFirstYear, true));
    expect(promoUsers[0]?.n).toBe(100);
    const promoCards = await t.database.db.select({ n: sql<number>`count(*)::int` }).from(cards).where(eq(cards.promoApplied, true));
    expect(promoCards[0]?.n).toBe(100);
    const promo = (await t.app.inject({ method: 'GET', url: '/api/promo' })).json();
    expect(promo).toEqual({ limitCount: 100, claimedCount: 100, remainingCount: 0 });
  }, 300_000);

  it('one user sends the same Idempotency-Key 20 times at once: one card, one charge', async () => {
    const user = await registerUser(t.app);
    const combine = await startCombine(user, '250', '0');
    await addSource(user, combine.id, { chargeCents: combine.funding.suggestedChargeCents.card, cardNumber: TEST_MASTERCARD, provider: 'mastercard' });
    const quote = (await user.request('POST', `/api/combines/${combine.id}/quote`, { useBoost: false, creationFeeSourceIdx: -1, cardType: 'general' })).json();
    const key = randomUUID();
    const body = { useBoost: false, creationFeeSourceIdx: -1, cardType: 'general', expected: { cardAmountCents: quote.cardAmountCents, totalChargedCents: quote.totalChargedCents, productFeeCents: quote.productFeeCents } };
    const results = await Promise.all(Array.from({ length: 20 }, () => user.request('POST', `/api/combines/${combine.id}/complete`, body, { 'idempotency-key': key })));
    expect(results.map((r) => r.statusCode)).toEqual(Array(20).fill(201));
    expect(new Set(results.map((r) => r.json().card.id)).size).toBe(1);
    expect(await t.database.db.select().from(cards).where(eq(cards.combineId, combine.id))).toHaveLength(1);
    expect(await t.database.db.select().from(journals).where(eq(journals.referenceId, combine.id))).toHaveLength(1);
  });

  it('one draft completed under 8 different keys while it is deleted and two other drafts are completed: one outcome, no deadlock', async () => {
    // Three drafts: within the Free plan's 3 a month whatever happens to the contested one.
    const user = await registerUser(t.app);
    const drafts = [];
    for (let i = 0; i < 3; i += 1) {
      const combine = await startCombine(user, '40', '0');
      await addSource(user, combine.id, { chargeCents: combine.funding.suggestedChargeCents.card });
      drafts.push(combine.id);
    }
    const [contested, ...others] = drafts as [string, ...string[]];
    const choices = { useBoost: false, creationFeeSourceIdx: -1, cardType: 'general' };
    const quote = (await user.request('POST', `/api/combines/${contested}/quote`, choices)).json();
    const body = { ...choices, expected: { cardAmountCents: quote.cardAmountCents, totalChargedCents: quote.totalChargedCents, productFeeCents: quote.productFeeCents } };
    const results = await Promise.all([
      ...Array.from({ length: 8 }, () => user.request('POST', `/api/combines/${contested}/complete`, body, { 'idempotency-key': randomUUID() })),
      user.request('DELETE', `/api/combines/${contested}`),
      ...others.map((id) => completeWithQuote(user, id)),
    ]);
    const contestedResults = results.slice(0, 9);
    expect(results.every((r) => r.statusCode < 500), results.map((r) => `${r.statusCode} ${r.body}`).join('\n')).toBe(true);
    expect(results.slice(9).map((r) => r.statusCode)).toEqual([201, 201]);
    const contestedCards = await t.database.db.select().from(cards).where(eq(cards.combineId, contested));
    const completedOnce = contestedResults.filter((r) => r.statusCode === 201);
    // Either the deletion came first (no card; the completions find nothing to complete) or one
    // completion did (one card; the deletion and the other completions are refused).
    expect(completedOnce.length).toBe(contestedCards.length);
    expect(contestedCards.length).toBeLessThanOrEqual(1);
    expect(await t.database.db.select().from(journals).where(eq(journals.referenceId, contested))).toHaveLength(contestedCards.length);
  });

  it('a Free user completing 6 drafts at once: exactly 3 succeed', async () => {
    const user = await registerUser(t.app);
    const drafts = [];
    for (let i = 0; i < 6; i += 1) {
      const combine = await startCombine(user, '30', '0');
      await addSource(user, combine.id, { chargeCents: combine.funding.suggestedChargeCents.card, cardNumber: i % 2 ? TEST_VISA : TEST_MASTERCARD, provider: i % 2 ? 'visa' : 'mastercard' });
      drafts.push(combine.id);
    }
    const results = await Promise.all(drafts.map((id) => completeWithQuote(user, id)));
    const statuses = results.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([201, 201, 201, 403, 403, 403]);
    const refused = results.filter((r) => r.statusCode === 403);
    expect(refused.every((r) => r.json().error.message === 'You have reached your monthly limit of 3 combines on the Free plan. Upgrade for more.')).toBe(true);
    const [row] = await t.database.db.select({ n: sql<number>`count(*)::int` }).from(combines).where(eq(combines.status, 'completed'));
    expect(row?.n).toBeGreaterThanOrEqual(3);
  });
});
