// Events written with the changes they report (docs/rules.md#webhooks, decision 191), on
// PostgreSQL: one per change, none for a refusal or a replay, the object as the API shows it and
// never a card number or CVV; cashout.paid and rebate.paid once the payout is confirmed.
import { randomUUID } from 'node:crypto';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addSource, completeWithQuote, createCard, PAYOUT_DETAILS, registerUser, startCombine, type ApiUser } from '../../../tests/helpers/api-client';
import { insertFundedCard, insertPayoutMethod } from '../../../tests/helpers/fixtures';
import { createTestApp, type TestApp } from '../../../tests/helpers/test-app';
import { events, rebates } from '../db/schema';

describe('events', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  async function signUp(): Promise<{ user: ApiUser; userId: string }> {
    const user = await registerUser(t.app);
    return { user, userId: (await user.request('GET', '/api/me')).json().id as string };
  }
  const eventsOf = (userId: string) => t.database.db.select().from(events).where(eq(events.userId, userId)).orderBy(asc(events.createdAt), asc(events.type));

  it('a completion reports the combine and its card as the answer shows them, without the card number or CVV', async () => {
    const { user, userId } = await signUp();
    const completed = await createCard(user, '50');
    expect(completed.statusCode).toBe(201);
    const { combine, card } = completed.json();
    const reported = await eventsOf(userId);
    expect(reported.map((e) => e.type).sort()).toEqual(['card.created', 'combine.completed']);
    expect(reported.find((e) => e.type === 'card.created')!.data).toEqual(card);
    expect(reported.find((e) => e.type === 'combine.completed')!.data).toEqual(combine);
    const revealed = (await user.request('POST', `/api/cards/${card.id}/reveal`)).json();
    expect(revealed.number.replace(/\s/g, '')).toMatch(/^\d{16}$/);
    const text = JSON.stringify(reported);
    expect(text).not.toContain(revealed.number.replace(/\s/g, ''));
    expect(text).not.toMatch(/"cvv"/i);
  });

  it('a cash-out reports itself once: not when refused, not when replayed; paid once its payout is confirmed', async () => {
    const { user, userId } = await signUp();
    await insertPayoutMethod(t.database.db, userId, 'ach');
    const cardId = await insertFundedCard(t.database.db, userId, 10_000);
    const refused = await user.request('POST', '/api/cashouts', { cardId, amountCents: 20_000, payoutMethod: 'ach' }, { 'idempotency-key': randomUUID() });
    expect(refused.statusCode).toBeGreaterThanOrEqual(400);
    expect(await eventsOf(userId)).toEqual([]);
    const key = randomUUID();
    const first = await user.request('POST', '/api/cashouts', { cardId, amountCents: 5_000, payoutMethod: 'ach' }, { 'idempotency-key': key });
    const replay = await user.request('POST', '/api/cashouts', { cardId, amountCents: 5_000, payoutMethod: 'ach' }, { 'idempotency-key': key });
    expect([first.statusCode, replay.headers['idempotent-replayed']]).toEqual([201, 'true']);
    await t.app.effects.drain();
    await t.app.effects.idle();
    await t.app.effects.drain();
    const reported = await eventsOf(userId);
    expect(reported.map((e) => e.type)).toEqual(['cashout.created', 'cashout.paid']);
    expect(reported.map((e) => e.data)).toEqual([first.json().cashout, first.json().cashout]);
  });

  it('a purchase reports its approval or its decline with the reason; freeze, unfreeze and controls report the card', async () => {
    const { user, userId } = await signUp();
    const cardId = await insertFundedCard(t.database.db, userId, 1_000);
    const buy = (amountCents: number) => user.request('POST', `/api/cards/${cardId}/purchases`, { amountCents, merchant: 'Corner Shop' }, { 'idempotency-key': randomUUID() });
    const approved = await buy(400);
    expect(approved.statusCode).toBe(201);
    expect((await buy(5_000)).statusCode).toBe(402);
    await user.request('POST', `/api/cards/${cardId}/freeze`);
    await user.request('POST', `/api/cards/${cardId}/unfreeze`);
    const controls = await user.request('PUT', `/api/cards/${cardId}/controls`, { perDayCents: 500 });
    const reported = await eventsOf(userId);
    expect(reported.map((e) => e.type)).toEqual(['card.authorization.approved', 'card.authorization.declined', 'card.frozen', 'card.unfrozen', 'card.controls.updated']);
    expect(reported[0]!.data).toEqual(approved.json());
    expect(reported[1]!.data).toMatchObject({ transaction: { status: 'declined', declineReason: 'insufficient_balance', amountCents: 5_000 } });
    expect([reported[2]!.data, reported[3]!.data]).toMatchObject([{ id: cardId, frozen: true }, { id: cardId, frozen: false }]);
    expect(reported[4]!.data).toEqual(controls.json());
  });

  it('a BNPL rebate reports rebate.paid once its payout is confirmed', async () => {
    const { user, userId } = await signUp();
    const combine = await startCombine(user, '143.85', '0', 'dollars');
    const added = await addSource(user, combine.id, { type: 'bnpl', provider: 'klarna', chargeCents: 15_000 });
    const sourceId = added.json().sources[0].id as string;
    await user.request('POST', `/api/combines/${combine.id}/sources/${sourceId}/bnpl-card`, { cardNumber: '4242 4242 4242 4242', expiry: '12/30', cvv: '123' });
    expect((await completeWithQuote(user, combine.id)).statusCode).toBe(201);
    expect((await user.request('POST', '/api/payout-methods', PAYOUT_DETAILS.ach)).statusCode).toBe(201);
    await t.app.effects.drain();
    await t.app.effects.idle();
    const [rebate] = await t.database.db.select().from(rebates).where(eq(rebates.combineId, combine.id));
    const paid = (await eventsOf(userId)).filter((e) => e.type === 'rebate.paid');
    expect(paid.map((e) => e.data)).toEqual([expect.objectContaining({ id: rebate!.id, combineId: combine.id, rebateAmountCents: 975, status: 'processed', payoutMethod: 'ach' })]);
  });
});
