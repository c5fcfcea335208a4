import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app';
import { insertFundedCard } from '../../../../tests/helpers/fixtures';
import { addSource, completeWithQuote, createCard, registerUser, startCombine, TEST_PASSWORD, type ApiUser } from '../../../../tests/helpers/api-client';
import { luhnValid } from '../../../core/cards';
import { auditLog, cards, transactions, users } from '../../db/schema';
import { checkLedger } from '../../ledger/check-ledger';
import { expireCards } from './expire-cards';
import { simulatePurchase } from './simulate-purchase';

const MINUTE_MS = 60_000;

describe('cards API', () => {
  let t: TestApp;
  let clock: Date;
  let alice: ApiUser;
  let bob: ApiUser;
  let aliceId: string;
  /** A card issued through the wizard: real encrypted number and CVV. */
  let issuedCardId: string;
  /** Every response body Alice received except the reveals, scanned for the full number at the end. */
  const seen: string[] = [];

  const userIdOf = async (user: ApiUser) => {
    const [row] = await t.database.db.select({ id: users.id }).from(users).where(eq(users.email, user.email));
    if (!row) throw new Error('user missing');
    return row.id;
  };
  const call = async (user: ApiUser, method: 'GET' | 'POST', url: string, body?: unknown, headers?: Record<string, string>) => {
    const res = await user.request(method, url, body, headers);
    if (user === alice && !url.endsWith('/reveal')) seen.push(res.body);
    return res;
  };
  const purchase = (user: ApiUser, cardId: string, amountCents: number, key: string = randomUUID(), merchant = 'Corner Shop') =>
    call(user, 'POST', `/api/cards/${cardId}/purchases`, { merchant, amountCents }, { 'idempotency-key': key });

  /** Runs while a purchase waits for the demo processor (the spec's 1-2 s), to change the card then. */
  let duringPaymentWait: (() => Promise<unknown>) | null = null;

  beforeAll(async () => {
    clock = new Date();
    t = await createTestApp({ now: () => clock, adapters: { delay: async (timing) => void (timing === 'payment' && (await duringPaymentWait?.())) } });
    alice = await registerUser(t.app);
    bob = await registerUser(t.app);
    aliceId = await userIdOf(alice);
    const created = await createCard(alice, '100');
    expect(created.statusCode).toBe(201);
    seen.push(created.body);
    issuedCardId = created.json().card.id;
  });
  afterAll(async () => {
    if (t) expect((await checkLedger(t.database.db)).problems).toEqual([]);
    await t?.close();
  });

  it("another user's card id answers 404 on every card endpoint, and is never listed", async () => {
    const id = issuedCardId;
    const attempts = [
      await call(bob, 'GET', `/api/cards/${id}`),
      await call(bob, 'POST', `/api/cards/${id}/reveal`),
      await call(bob, 'POST', `/api/cards/${id}/freeze`),
      await call(bob, 'POST', `/api/cards/${id}/unfreeze`),
      await purchase(bob, id, 100),
      await call(bob, 'GET', `/api/cards/${id}/transactions`),
    ];
    for (const res of attempts) {
      expect(res.statusCode, res.body).toBe(404);
      expect(res.json().error.code).toBe('not_found');
    }
    const list = await call(bob, 'GET', '/api/cards');
    expect(list.json().cards).toEqual([]);
    // Nothing happened to the card on Bob's behalf.
    const [card] = await t.database.db.select().from(cards).where(eq(cards.id, id));
    expect(card).toMatchObject({ frozen: false, amountSpentCents: 0 });
    const bobTransactions = await t.database.db.select().from(transactions).where(eq(transactions.cardId, id));
    expect(bobTransactions.filter((row) => row.type === 'purchase')).toHaveLength(0);
  });

  it('signed out, every card endpoint answers 401', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/cards' });
    expect(res.statusCode).toBe(401);
    const csv = await t.app.inject({ method: 'GET', url: '/api/history.csv' });
    expect(csv.statusCode).toBe(401);
  });

  it('lists cards newest first with masked numbers, amounts and what each may do', async () => {
    const res = await call(alice, 'GET', '/api/cards');
    expect(res.statusCode).toBe(200);
    const [card] = res.json().cards;
    expect(card).toMatchObject({
      id: issuedCardId,
      status: 'active',
      frozen: false,
      type: 'general',
      amountSpentCents: 0,
      can: { spend: true, cashOut: true, useAsSource: true, freeze: true },
    });
    expect(card.maskedNumber).toBe(`•••• •••• •••• ${card.last4}`);
    expect(card.remainingAmountCents).toBe(card.originalAmountCents);
    expect(card).not.toHaveProperty('numberEnc');
    expect(card).not.toHaveProperty('cvvEnc');
  });

  it('a purchase lowers the balance through the ledger; a retry with the same key charges once', async () => {
    const before = (await call(alice, 'GET', `/api/cards/${issuedCardId}`)).json();
    const key = randomUUID();
    const first = await purchase(alice, issuedCardId, 1_234, key, 'Book Store');
    expect(first.statusCode, first.body).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(first.json().transaction).toMatchObject({ type: 'purchase', status: 'success', amountCents: 1_234, merchant: 'Book Store' });
    expect(first.json().card).toMatchObject({ remainingAmountCents: before.remainingAmountCents - 1_234, amountSpentCents: 1_234 });
    const retry = await purchase(alice, issuedCardId, 1_234, key, 'Book Store');
    expect(retry.statusCode).toBe(201);
    // docs/api.md: a replayed answer says so.
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json()).toEqual(first.json());
    const after = (await call(alice, 'GET', `/api/cards/${issuedCardId}`)).json();
    expect(after.remainingAmountCents).toBe(before.remainingAmountCents - 1_234);

    const list = (await call(alice, 'GET', `/api/cards/${issuedCardId}/transactions`)).json().transactions;
    expect(list.map((row: { type: string; status: string }) => `${row.type}:${row.status}`)).toEqual(['purchase:success', 'funding:success']);
    expect((await checkLedger(t.database.db)).problems).toEqual([]);
  });

  it('the purchase form is validated with clear messages', async () => {
    const empty = await call(alice, 'POST', `/api/cards/${issuedCardId}/purchases`, { merchant: ' ', amountCents: 100 }, { 'idempotency-key': randomUUID() });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.message).toBe('Please enter a merchant name');
    const zero = await call(alice, 'POST', `/api/cards/${issuedCardId}/purchases`, { merchant: 'Shop', amountCents: 0 }, { 'idempotency-key': randomUUID() });
    expect(zero.json().error.message).toBe('Please enter a valid amount');
    // More than any card can hold: said as a purchase, not as a card to create.
    const huge = await call(alice, 'POST', `/api/cards/${issuedCardId}/purchases`, { merchant: 'Shop', amountCents: 5_000_001 }, { 'idempotency-key': randomUUID() });
    expect(huge.statusCode).toBe(400);
    expect(huge.json().error.message).toBe('A purchase can be at most $50,000.00: no card holds more.');
    const noKey = await call(alice, 'POST', `/api/cards/${issuedCardId}/purchases`, { merchant: 'Shop', amountCents: 100 });
    expect(noKey.statusCode).toBe(400);
  });

  it('a frozen card declines purchases with the reason recorded; unfreezing restores it; both are audited', async () => {
    const frozen = await call(alice, 'POST', `/api/cards/${issuedCardId}/freeze`);
    expect(frozen.statusCode).toBe(200);
    expect(frozen.json()).toMatchObject({ frozen: true, can: { spend: false, cashOut: false, useAsSource: false, freeze: true } });
    const balance = frozen.json().remainingAmountCents;

    const declined = await purchase(alice, issuedCardId, 100);
    expect(declined.statusCode).toBe(402);
    expect(declined.json().error).toMatchObject({ code: 'declined', message: 'Declined: this card is frozen. Unfreeze it to use it.', details: { reason: 'frozen' } });
    const [declinedRow] = await t.database.db
      .select()
      .from(transactions)
      .where(and(eq(transactions.cardId, issuedCardId), eq(transactions.status, 'declined')));
    expect(declinedRow).toMatchObject({ declineReason: 'frozen', amountCents: 100, journalId: null });

    const filtered = (await call(alice, 'GET', '/api/cards?status=frozen')).json().cards;
    expect(filtered.map((c: { id: string }) => c.id)).toEqual([issuedCardId]);
    expect((await call(alice, 'GET', '/api/cards?status=active')).json().cards).toEqual([]);

    const unfrozen = await call(alice, 'POST', `/api/cards/${issuedCardId}/unfreeze`);
    expect(unfrozen.json()).toMatchObject({ frozen: false, remainingAmountCents: balance });
    expect((await purchase(alice, issuedCardId, 100)).statusCode).toBe(201);

    const events = await t.database.db.select().from(auditLog).where(eq(auditLog.userId, aliceId));
    expect(events.map((e) => e.event)).toEqual(expect.arrayContaining(['card_frozen', 'card_unfrozen']));
  });

  it('a purchase asked while the card is frozen is declined, even when the card is unfrozen during its wait; and one asked before a freeze during the wait is declined too', async () => {
    expect((await call(alice, 'POST', `/api/cards/${issuedCardId}/freeze`)).statusCode).toBe(200);
    const balance = async () => (await call(alice, 'GET', '/api/cards')).json().cards.find((c: { id: string }) => c.id === issuedCardId).remainingAmountCents as number;
    const before = await balance();
    try {
      duringPaymentWait = () => call(alice, 'POST', `/api/cards/${issuedCardId}/unfreeze`);
      const askedWhileFrozen = await purchase(alice, issuedCardId, 222, randomUUID(), 'RaceShop');
      expect(askedWhileFrozen.statusCode).toBe(402);
      expect(askedWhileFrozen.json().error.details.reason).toBe('frozen');
      expect(await balance()).toBe(before);

      duringPaymentWait = () => call(alice, 'POST', `/api/cards/${issuedCardId}/freeze`);
      const frozenDuringWait = await purchase(alice, issuedCardId, 222, randomUUID(), 'RaceShop');
      expect(frozenDuringWait.statusCode).toBe(402);
      expect(frozenDuringWait.json().error.details.reason).toBe('frozen');
      expect(await balance()).toBe(before);
    } finally {
      duringPaymentWait = null;
    }
    expect((await call(alice, 'POST', `/api/cards/${issuedCardId}/unfreeze`)).statusCode).toBe(200);
    expect((await purchase(alice, issuedCardId, 222, randomUUID(), 'RaceShop')).statusCode).toBe(201);
  });

  it('reveal needs the password entered within 5 minutes, then shows number, expiry and CVV and is audited', async () => {
    clock = new Date(clock.getTime() + 6 * MINUTE_MS);
    const refused = await call(alice, 'POST', `/api/cards/${issuedCardId}/reveal`);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('reauthentication_required');

    const wrong = await alice.request('POST', '/api/auth/reauthenticate', { password: 'Not-The-Password-1' });
    expect(wrong.statusCode).not.toBe(204);
    expect((await alice.request('POST', `/api/cards/${issuedCardId}/reveal`)).statusCode).toBe(403);

    const reauth = await alice.request('POST', '/api/auth/reauthenticate', { password: TEST_PASSWORD });
    expect(reauth.statusCode).toBe(204);
    const revealed = await alice.request('POST', `/api/cards/${issuedCardId}/reveal`);
    expect(revealed.statusCode).toBe(200);
    const secret = revealed.json();
    const card = (await call(alice, 'GET', `/api/cards/${issuedCardId}`)).json();
    expect(secret.number).toMatch(/^[45]\d{15}$/);
    expect(luhnValid(secret.number)).toBe(true);
    expect(secret.number.slice(-4)).toBe(card.last4);
    expect(secret.expiryMonth).toMatch(/^(0[1-9]|1[0-2])$/);
    expect(secret.expiryYear).toMatch(/^\d{2}$/);
    expect(secret.cvv).toMatch(/^\d{3}$/);
    expect(secret.network).toBe(card.network);
    const reveals = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.userId, aliceId), eq(auditLog.event, 'card_revealed')));
    expect(reveals).toHaveLength(1);
    expect(JSON.stringify(reveals[0]?.details)).not.toContain(secret.number);

    // Five minutes later the reveal asks again.
    clock = new Date(clock.getTime() + 5 * MINUTE_MS + 1_000);
    expect((await alice.request('POST', `/api/cards/${issuedCardId}/reveal`)).statusCode).toBe(403);
  });

  it('30 concurrent purchases that together exceed the balance: never below zero, ledger consistent', async () => {
    const startCents = 10_000;
    const spendCents = 700; // 14 fit (9,800 cents); the other 16 must be declined
    const cardId = await insertFundedCard(t.database.db, aliceId, startCents, { last4: '0001' });
    const results = await Promise.all(Array.from({ length: 30 }, () => purchase(alice, cardId, spendCents)));
    const approved = results.filter((r) => r.statusCode === 201);
    const declined = results.filter((r) => r.statusCode === 402);
    expect(approved).toHaveLength(14);
    expect(declined).toHaveLength(16);
    for (const res of declined) expect(res.json().error.details.reason).toBe('insufficient_balance');
    const [card] = await t.database.db.select().from(cards).where(eq(cards.id, cardId));
    expect(card?.remainingAmountCents).toBe(startCents - 14 * spendCents);
    expect(card?.amountSpentCents).toBe(14 * spendCents);
    const rows = await t.database.db.select().from(transactions).where(eq(transactions.cardId, cardId));
    expect(rows.filter((r) => r.status === 'success')).toHaveLength(14);
    expect(rows.filter((r) => r.status === 'declined')).toHaveLength(16);
    expect((await checkLedger(t.database.db)).problems).toEqual([]);
  });

  it('a single-use card closes when a purchase empties it', async () => {
    const cardId = await insertFundedCard(t.database.db, aliceId, 2_500, { type: 'single-use', last4: '0002' });
    const res = await purchase(alice, cardId, 2_500);
    expect(res.statusCode).toBe(201);
    expect(res.json().card).toMatchObject({ status: 'closed', remainingAmountCents: 0, can: { spend: false, cashOut: false, freeze: false } });
    const again = await purchase(alice, cardId, 1);
    expect(again.json().error.details.reason).toBe('closed');
    expect((await call(alice, 'POST', `/api/cards/${cardId}/freeze`)).statusCode).toBe(409);
  });

  it('the scheduled job expires general cards after 12 months (cash-out only) and closes empty single-use cards', async () => {
    const issuedAt = new Date(clock.getTime() - 400 * 24 * 60 * MINUTE_MS);
    const oldGeneral = await insertFundedCard(t.database.db, aliceId, 5_000, { last4: '0003', issuedAt, validUntil: new Date(clock.getTime() - 1_000) });
    const oldSingleUse = await insertFundedCard(t.database.db, aliceId, 700, { type: 'single-use', last4: '0004', issuedAt, validUntil: new Date(clock.getTime() - 1_000) });
    // Past validity but not yet marked: the server already refuses to spend it.
    const early = await purchase(alice, oldGeneral, 100);
    expect(early.json().error.details.reason).toBe('expired');

    const result = await expireCards(t.database.db, clock);
    expect(result.expired).toBeGreaterThanOrEqual(2);
    const general = (await call(alice, 'GET', `/api/cards/${oldGeneral}`)).json();
    expect(general).toMatchObject({ status: 'expired', remainingAmountCents: 5_000, can: { spend: false, cashOut: true, useAsSource: false, freeze: true } });
    // Money left on a single-use card past its 30 days expires with it: cash-out only.
    expect((await call(alice, 'GET', `/api/cards/${oldSingleUse}`)).json()).toMatchObject({ status: 'expired', can: { cashOut: true } });
    expect((await purchase(alice, oldGeneral, 100)).json().error.details.reason).toBe('expired');
    const expiredList = (await call(alice, 'GET', '/api/cards?status=expired')).json().cards.map((c: { id: string }) => c.id);
    expect(expiredList).toEqual(expect.arrayContaining([oldGeneral, oldSingleUse]));
    // Running it again changes nothing.
    expect(await expireCards(t.database.db, clock)).toEqual({ expired: 0, closed: 0 });
  });

  it('no response except the reveal carries a full card number', async () => {
    // Re-authentication rotates the session: alice keeps the new cookie it answers with.
    expect((await alice.request('POST', '/api/auth/reauthenticate', { password: TEST_PASSWORD })).statusCode).toBe(204);
    const secret = (await alice.request('POST', `/api/cards/${issuedCardId}/reveal`)).json();
    expect(secret.number).toMatch(/^\d{16}$/);
    const combineId = (await call(alice, 'GET', `/api/cards/${issuedCardId}`)).json().combineId;
    for (const url of ['/api/cards', '/api/cards?status=all', `/api/cards/${issuedCardId}`, `/api/cards/${issuedCardId}/transactions`, '/api/dashboard', '/api/history.csv', '/api/combines?status=completed', `/api/combines/${combineId}`, '/api/me']) {
      const res = await call(alice, 'GET', url);
      expect(res.statusCode, url).toBe(200);
    }
    const grouped = secret.number.replace(/(\d{4})(?=\d)/g, '$1 ');
    for (const body of seen) {
      expect(body).not.toContain(secret.number);
      expect(body).not.toContain(grouped);
    }
    expect(seen.length).toBeGreaterThan(20);
  });
  it('history CSV lists the completed combines of the range', async () => {
    const res = await call(alice, 'GET', '/api/history.csv?range=all');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-disposition']).toMatch(/attachment; filename="payweave-history-all-\d{4}-\d{2}-\d{2}\.csv"/);
    const lines = res.body.trimEnd().split('\r\n');
    expect(lines[0]).toBe('Created (UTC),Completed (UTC),Combine ID,Card Amount (USD),Sources,Source Details,Card,Card Status,Balance (USD),Fees (USD),Rebate (USD),Promo Applied');
    expect(lines).toHaveLength(2);
    const card = (await call(alice, 'GET', `/api/cards/${issuedCardId}`)).json();
    const cells = lines[1]!.split(',');
    expect(cells[3]).toBe((card.originalAmountCents / 100).toFixed(2));
    expect(cells[4]).toBe('1');
    expect(cells[5]).toMatch(/^Visa Credit \d+\.\d{2}$/);
    expect(cells[6]).toBe(`ending ${card.last4}`);
    expect(cells[7]).toBe('Active');
    expect(cells[8]).toBe((card.remainingAmountCents / 100).toFixed(2));
    // Fees: every cent charged that did not reach the card, the $0.10 creation fee included when
    // the new card pays it (the default, as here): charge - card amount, for one card source.
    const combine = (await call(alice, 'GET', `/api/combines/${card.combineId}`)).json();
    expect(combine.creationFeeSourceIdx).toBe(-1);
    const chargedCents = combine.sources.reduce((total: number, s: { chargeCents: number }) => total + s.chargeCents, 0);
    expect(cells[9]).toBe(((chargedCents - card.originalAmountCents) / 100).toFixed(2));

    // Eight days later, the last 7 days hold nothing.
    const later = await call(alice, 'GET', '/api/history.csv?range=7d');
    expect(later.body.trimEnd().split('\r\n')).toHaveLength(2);
    clock = new Date(clock.getTime() + 8 * 24 * 60 * MINUTE_MS);
    const empty = await call(alice, 'GET', '/api/history.csv?range=7d');
    expect(empty.body.trimEnd().split('\r\n')).toHaveLength(1);
    expect((await call(bob, 'GET', '/api/history.csv')).body.trimEnd().split('\r\n')).toHaveLength(1);
  });

  it('history CSV: a source that paid the creation fee is listed with what it was charged, the fee included', async () => {
    const carol = await registerUser(t.app);
    const combine = await startCombine(carol, '100', '0');
    const chargeCents = combine.funding.suggestedChargeCents.card;
    expect((await addSource(carol, combine.id, { chargeCents })).statusCode).toBe(201);
    const done = await completeWithQuote(carol, combine.id, { creationFeeSourceIdx: 0 });
    expect(done.statusCode, done.body).toBe(201);
    const cells = (await call(carol, 'GET', '/api/history.csv')).body.trimEnd().split('\r\n')[1]!.split(',');
    expect(cells[5]).toBe(`Visa Credit ${((chargeCents + 10) / 100).toFixed(2)}`);
    expect(cells[9]).toBe(((chargeCents + 10 - done.json().card.originalAmountCents) / 100).toFixed(2));
  });

});

describe('dashboard API', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a new user: eligible promo, Free plan, no combines, no boosts, no balances', async () => {
    const user = await registerUser(t.app);
    const res = await user.request('GET', '/api/dashboard');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      plan: { id: 'free', label: 'Free Plan' },
      promo: { state: 'eligible', endsAt: null, remainingCount: 100, limitCount: 100 },
      combinesThisMonth: { completed: 0, limit: 3, remaining: 3 },
      boosts: { available: 0, used: 0, maxHeld: 3, maxLifetimeUsed: 3 },
      recentCombines: [],
      balances: { totalRemainingCents: 0, cardsWithBalance: 0, bars: [] },
    });
  });

  it('after three combines: 3 of 3 this month, a boost earned, the last 3 listed, balances summed', async () => {
    const user = await registerUser(t.app);
    const ids: string[] = [];
    for (const amount of ['100', '200', '1000']) {
      const res = await createCard(user, amount);
      expect(res.statusCode, res.body).toBe(201);
      ids.push(res.json().card.id);
    }
    const body = (await user.request('GET', '/api/dashboard')).json();
    expect(body.combinesThisMonth).toEqual({ completed: 3, limit: 3, remaining: 0 });
    expect(body.boosts).toMatchObject({ available: 1, used: 0, combineTotal: 3 });
    expect(body.recentCombines).toHaveLength(3);
    expect(body.recentCombines.map((c: { card: { id: string } }) => c.card.id).sort()).toEqual([...ids].sort());
    // The $1,000 combine claimed a launch-promo spot.
    expect(body.promo.state).toBe('active');
    expect(body.promo.endsAt).not.toBeNull();
    expect(body.promo.daysRemaining).toBeGreaterThan(360);
    expect(body.promo.remainingCount).toBe(99);
    const listed = (await user.request('GET', '/api/cards')).json().cards as Array<{ remainingAmountCents: number }>;
    expect(body.balances.totalRemainingCents).toBe(listed.reduce((sum, c) => sum + c.remainingAmountCents, 0));
    expect(body.balances.cardsWithBalance).toBe(3);
    const bars = body.balances.bars.map((b: { remainingAmountCents: number }) => b.remainingAmountCents);
    expect(bars).toEqual([...bars].sort((a: number, b: number) => b - a));
  });

  it('live mode: purchases answer 501 Live mode not yet implemented, before anything is read', async () => {
    const liveApp = { config: { demoMode: false } } as unknown as FastifyInstance;
    await expect(
      simulatePurchase(liveApp, { userId: randomUUID(), cardId: randomUUID(), request: { merchant: 'Shop', amountCents: 100 }, idempotencyKey: randomUUID() }),
    ).rejects.toMatchObject({ statusCode: 501, code: 'live_mode_not_implemented', message: 'Live mode not yet implemented' });
  });
});
