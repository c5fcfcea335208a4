// Purchases decided against a card's spend controls, on PostgreSQL (docs/rules.md#card-controls):
// the race a daily limit must win, and every decline in words with nothing moved.
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app';
import { insertFundedCard } from '../../../../tests/helpers/fixtures';
import { registerUser, type ApiUser } from '../../../../tests/helpers/api-client';
import { cards, journals, transactions, users } from '../../db/schema';
import { checkLedger } from '../../ledger/check-ledger';

describe('purchases against spend controls', () => {
  let t: TestApp;
  const newOwner = async () => {
    const user = await registerUser(t.app);
    const [row] = await t.database.db.select({ id: users.id }).from(users).where(eq(users.email, user.email));
    return { user, userId: row!.id };
  };
  const purchase = (user: ApiUser, cardId: string, amountCents: number, merchant = 'Corner Shop', category?: string) =>
    user.request('POST', `/api/cards/${cardId}/purchases`, { merchant, amountCents, ...(category ? { category } : {}) }, { 'idempotency-key': randomUUID() });
  const setControls = (user: ApiUser, cardId: string, body: Record<string, unknown>) => user.request('PUT', `/api/cards/${cardId}/controls`, body);
  const cardFigures = async (cardId: string) => {
    const [card] = await t.database.db.select({ remaining: cards.remainingAmountCents, spent: cards.amountSpentCents }).from(cards).where(eq(cards.id, cardId));
    return card;
  };

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    if (t) expect((await checkLedger(t.database.db)).problems).toEqual([]);
    await t?.close();
  });

  it('20 concurrent $10 purchases against a $100 daily limit on a $500 card: exactly 10 approved, 10 declined spend_limit', async () => {
    const { user, userId } = await newOwner();
    const cardId = await insertFundedCard(t.database.db, userId, 50_000, { last4: '0101' });
    expect((await setControls(user, cardId, { perDayCents: 10_000 })).statusCode).toBe(200);
    const results = await Promise.all(Array.from({ length: 20 }, () => purchase(user, cardId, 1_000)));
    const approved = results.filter((r) => r.statusCode === 201);
    const declined = results.filter((r) => r.statusCode === 402);
    expect(approved).toHaveLength(10);
    expect(declined).toHaveLength(10);
    for (const res of declined) {
      expect(res.json().error).toMatchObject({ message: "Declined: this card's daily limit leaves $0.00 today.", details: { reason: 'spend_limit', window: 'day', leftCents: 0 } });
    }
    expect(await cardFigures(cardId)).toEqual({ remaining: 40_000, spent: 10_000 });
    const rows = await t.database.db.select().from(transactions).where(eq(transactions.cardId, cardId));
    expect(rows.filter((r) => r.status === 'success')).toHaveLength(10);
    expect(rows.filter((r) => r.status === 'declined' && r.declineReason === 'spend_limit')).toHaveLength(10);
    expect((await checkLedger(t.database.db)).problems).toEqual([]);
  });

  it('every decline says why in words, on the answer and in the card’s list, and moves nothing', async () => {
    const { user, userId } = await newOwner();
    const card = (last4: string, over: Parameters<typeof insertFundedCard>[3] = {}) => insertFundedCard(t.database.db, userId, 5_000, { last4, ...over });
    const limited = await card('0201');
    await setControls(user, limited, { perTransactionCents: 2_000 });
    const locked = await card('0202');
    await setControls(user, locked, { merchantLock: { mode: 'named', merchant: 'Corner Cafe' } });
    const noGambling = await card('0203');
    await setControls(user, noGambling, { blockCategories: ['gambling'] });
    const frozen = await card('0204', { frozen: true });
    const expired = await card('0205', { validUntil: new Date(Date.now() - 1_000) });
    const cases = [
      { cardId: limited, amount: 2_001, reason: 'spend_limit', words: 'Declined: this card allows at most $20.00 a purchase.' },
      { cardId: locked, amount: 100, reason: 'merchant_locked', words: 'Declined: this card is locked to Corner Cafe.' },
      { cardId: noGambling, amount: 100, category: 'gambling', reason: 'category_blocked', words: 'Declined: this card does not allow Gambling purchases.' },
      { cardId: frozen, amount: 100, reason: 'frozen', words: 'Declined: this card is frozen. Unfreeze it to use it.' },
      { cardId: expired, amount: 100, reason: 'expired', words: 'Declined: this card has expired.' },
      { cardId: limited, amount: 5_001, reason: 'spend_limit', words: 'Declined: this card allows at most $20.00 a purchase.' },
      { cardId: locked, amount: 5_001, merchant: 'corner  cafe', reason: 'insufficient_balance', words: 'Declined: the card does not have enough balance for this purchase.' },
    ];
    const journalsBefore = (await t.database.db.select({ id: journals.id }).from(journals)).length;
    for (const c of cases) {
      const res = await purchase(user, c.cardId, c.amount, c.merchant ?? 'Corner Shop', c.category);
      expect(res.statusCode, res.body).toBe(402);
      expect(res.json().error).toMatchObject({ code: 'declined', message: c.words, details: { reason: c.reason } });
      expect(await cardFigures(c.cardId)).toEqual({ remaining: 5_000, spent: 0 });
      const list = (await user.request('GET', `/api/cards/${c.cardId}/transactions`)).json().transactions;
      const [last] = list;
      expect(last).toMatchObject({ status: 'declined', declineReason: c.reason, amountCents: c.amount });
      // The list says it as the answer did: a controls decline with its detail, the others by their reason.
      if (['spend_limit', 'merchant_locked', 'category_blocked'].includes(c.reason)) expect(last.declineMessage).toBe(c.words);
    }
    expect((await t.database.db.select({ id: journals.id }).from(journals)).length).toBe(journalsBefore);
  });
});
