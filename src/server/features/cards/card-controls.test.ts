// GET and PUT /api/cards/:id/controls on PostgreSQL (docs/rules.md#card-controls): what is saved,
// what it leaves, what it refuses, and the purchases it then lets through or declines.
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SPEND_CONTROLS_MESSAGES } from '../../../core/spend-controls-validation';
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app';
import { insertFundedCard } from '../../../../tests/helpers/fixtures';
import { registerUser, type ApiUser } from '../../../../tests/helpers/api-client';
import { cards, transactions, users } from '../../db/schema';
import { checkLedger } from '../../ledger/check-ledger';

const HOUR_MS = 3_600_000;

describe('card spend controls API', () => {
  let t: TestApp;
  let owner: ApiUser;
  let ownerId: string;
  let cardSeq = 0;
  const newCard = (over: Parameters<typeof insertFundedCard>[3] = {}) => insertFundedCard(t.database.db, ownerId, 50_000, { last4: String(3000 + ++cardSeq), ...over });
  const controlsOf = (cardId: string, user = owner) => user.request('GET', `/api/cards/${cardId}/controls`);
  const setControls = (cardId: string, body: Record<string, unknown>, user = owner) => user.request('PUT', `/api/cards/${cardId}/controls`, body);
  const purchase = (cardId: string, amountCents: number, merchant = 'Corner Shop', category?: string) =>
    owner.request('POST', `/api/cards/${cardId}/purchases`, { merchant, amountCents, ...(category ? { category } : {}) }, { 'idempotency-key': randomUUID() });
  /** Moves the card's approved purchases back in time, as if they were made `hours` ago. */
  const ageSpending = (cardId: string, hours: number) =>
    t.database.db.update(transactions).set({ createdAt: new Date(Date.now() - hours * HOUR_MS) }).where(and(eq(transactions.cardId, cardId), eq(transactions.status, 'success')));

  beforeAll(async () => {
    t = await createTestApp();
    owner = await registerUser(t.app);
    const [row] = await t.database.db.select({ id: users.id }).from(users).where(eq(users.email, owner.email));
    ownerId = row!.id;
  });
  afterAll(async () => {
    if (t) expect((await checkLedger(t.database.db)).problems).toEqual([]);
    await t?.close();
  });

  it('a card without controls has none, and nothing limited to say', async () => {
    const res = await controlsOf(await newCard());
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      controls: { perTransactionCents: null, perDayCents: null, merchantLock: { mode: 'off' }, blockCategories: [], allowOnlyCategories: [] },
      available: { perDayCents: null, largestPurchaseCents: null },
      availableText: null,
    });
  });

  it('saves limits and reads back what they leave now, over trailing windows', async () => {
    const cardId = await newCard();
    expect((await purchase(cardId, 4_000)).statusCode).toBe(201);
    await ageSpending(cardId, 25); // yesterday's: out of the day window, inside the 30 days
    expect((await purchase(cardId, 1_790)).statusCode).toBe(201);
    const saved = await setControls(cardId, { perDayCents: 6_000, per30DaysCents: 37_000, perTransactionCents: 5_000 });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().available).toEqual({ perTransactionCents: 5_000, perDayCents: 4_210, per30DaysCents: 31_210, perYearCents: null, lifetimeCents: null, largestPurchaseCents: 4_210 });
    expect(saved.json().availableText).toBe('$42.10 left today, $312.10 left this 30 days, at most $50.00 a purchase');
    expect((await controlsOf(cardId)).json()).toEqual(saved.json());
  });

  it('a limit tightened below what was spent today leaves $0.00 and declines; what was spent stays spent', async () => {
    const cardId = await newCard();
    expect((await purchase(cardId, 3_000)).statusCode).toBe(201);
    const tightened = await setControls(cardId, { perDayCents: 2_000 });
    expect(tightened.json()).toMatchObject({ available: { perDayCents: 0 }, availableText: '$0.00 left today' });
    const declined = await purchase(cardId, 1);
    expect(declined.json().error).toMatchObject({ message: "Declined: this card's daily limit leaves $0.00 today.", details: { reason: 'spend_limit', window: 'day', leftCents: 0 } });
    const [card] = await t.database.db.select().from(cards).where(eq(cards.id, cardId));
    expect(card).toMatchObject({ amountSpentCents: 3_000, remainingAmountCents: 47_000 });
  });

  it("a 'first' merchant lock locks to the first merchant approved; a named lock to the one named", async () => {
    const cardId = await newCard();
    await setControls(cardId, { merchantLock: { mode: 'first' } });
    expect((await purchase(cardId, 100, '  Corner Cafe ')).statusCode).toBe(201);
    expect((await controlsOf(cardId)).json().controls.merchantLock).toEqual({ mode: 'named', merchant: 'Corner Cafe' });
    expect((await purchase(cardId, 100, 'CORNER cafe')).statusCode).toBe(201);
    expect((await purchase(cardId, 100, 'Other Shop')).json().error).toMatchObject({ message: 'Declined: this card is locked to Corner Cafe.', details: { reason: 'merchant_locked', lockedTo: 'Corner Cafe' } });

    const named = await newCard();
    await setControls(named, { merchantLock: { mode: 'named', merchant: 'Grocer' } });
    expect((await purchase(named, 100, 'Corner Cafe')).statusCode).toBe(402);
    expect((await purchase(named, 100, 'grocer')).statusCode).toBe(201);
  });

  it('categories: allow only some, and a purchase naming none counts as other', async () => {
    const cardId = await newCard();
    await setControls(cardId, { allowOnlyCategories: ['groceries', 'restaurants'] });
    expect((await purchase(cardId, 100, 'Grocer', 'groceries')).statusCode).toBe(201);
    expect((await purchase(cardId, 100, 'Airline', 'travel')).json().error.message).toBe('Declined: this card does not allow Travel purchases.');
    expect((await purchase(cardId, 100, 'Somewhere')).json().error.details).toMatchObject({ reason: 'category_blocked', category: 'other' });
    const list = (await owner.request('GET', `/api/cards/${cardId}/transactions`)).json().transactions;
    expect(list.map((row: { category?: string }) => row.category)).toEqual([undefined, 'travel', 'groceries']);
  });

  it('refuses bad controls field by field, saving nothing', async () => {
    const cardId = await newCard();
    await setControls(cardId, { perDayCents: 1_000 });
    const res = await setControls(cardId, { perDayCents: 0, lifetimeCents: 1.5, blockCategories: ['gambling'], allowOnlyCategories: ['travel'], merchantLock: { mode: 'named', merchant: ' ' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ code: 'validation_error', message: 'The daily limit must be at least $0.01, in whole cents.' });
    expect(res.json().error.details).toEqual([
      { path: '/perDayCents', message: 'The daily limit must be at least $0.01, in whole cents.' },
      { path: '/lifetimeCents', message: 'The lifetime limit must be at least $0.01, in whole cents.' },
      { path: '/merchantLock', message: SPEND_CONTROLS_MESSAGES.merchantMissing },
      { path: '/allowOnlyCategories', message: SPEND_CONTROLS_MESSAGES.blockAndAllow },
    ]);
    const unknown = await setControls(cardId, { blockCategories: ['casinos'] });
    expect(unknown.json().error.details).toEqual([{ path: '/blockCategories', message: '"casinos" is not a merchant category.' }]);
    expect((await controlsOf(cardId)).json().controls.perDayCents).toBe(1_000);
  });

  it("someone else's card is not found, read or written; a frozen card's controls can be edited", async () => {
    const cardId = await newCard();
    const stranger = await registerUser(t.app);
    for (const res of [await controlsOf(cardId, stranger), await setControls(cardId, { perDayCents: 1 }, stranger), await setControls(cardId, { perDayCents: 0 }, stranger)]) {
      expect(res.statusCode).toBe(404);
      expect(res.json().error.code).toBe('not_found');
    }
    expect((await controlsOf(cardId)).json().controls.perDayCents).toBeNull();
    const frozen = await newCard({ frozen: true });
    expect((await setControls(frozen, { perDayCents: 500 })).json().controls.perDayCents).toBe(500);
  });
});
