// Decision 173: every change of a card's state is told to the card processor (decision 170), a
// call whose quota every user shares, and written to the audit log. A script (or a stolen session)
// toggling freeze and unfreeze made one processor call and one audit row per request, without end.
// Unfreezes are now limited per user; a freeze, which protects the card, never is.
import { inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../../src/server/db/schema';
import { MONEY_RATE_LIMITS } from '../../../src/server/lib/money-limits';
import { createCard, registerUser, type ApiUser } from '../../helpers/api-client';
import { createTestApp, type TestApp } from '../../helpers/test-app';

describe(`attacker: toggling a card's state (decision 173)`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t?.close());

  async function issuedCard(user: ApiUser): Promise<string> {
    const created = await createCard(user, '40');
    expect(created.statusCode, created.body).toBe(201);
    return (created.json() as { card: { id: string } }).card.id;
  }
  const toggle = (user: ApiUser, cardId: string, action: 'freeze' | 'unfreeze') => user.request('POST', `/api/cards/${cardId}/${action}`);
  const stateCalls = (cardId: string) => t.calls.calls.filter((call) => call.op === 'processor.setCardState' && call.reference.startsWith(`card-state:${cardId}:`)).length;
  const toggleAudits = async (cardId: string) =>
    (await t.database.db.select({ details: auditLog.details }).from(auditLog).where(inArray(auditLog.event, ['card_frozen', 'card_unfrozen']))).filter(
      (row) => (row.details as { cardId?: string } | null)?.cardId === cardId,
    ).length;

  it(`a user gets ${MONEY_RATE_LIMITS.cardUnfreeze.points} unfreezes in 10 minutes, then 429 with the wait; the refused one reaches neither the card, the processor nor the audit log`, async () => {
    const user = await registerUser(t.app);
    const cardId = await issuedCard(user);
    const limit = MONEY_RATE_LIMITS.cardUnfreeze.points;
    for (let i = 0; i < limit; i += 1) {
      expect((await toggle(user, cardId, 'freeze')).statusCode).toBe(200);
      await t.app.cardStates.sync();
      expect((await toggle(user, cardId, 'unfreeze')).statusCode).toBe(200);
      await t.app.cardStates.sync();
    }
    expect(stateCalls(cardId)).toBe(2 * limit);
    expect((await toggle(user, cardId, 'freeze')).statusCode).toBe(200);
    await t.app.cardStates.sync();
    const calls = stateCalls(cardId);
    const audits = await toggleAudits(cardId);

    const refused = await toggle(user, cardId, 'unfreeze');
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error).toEqual({ code: 'rate_limited', message: 'Too many requests in a short time. Please wait 10 minutes and try again.' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(9 * 60);
    await t.app.cardStates.sync();
    expect(stateCalls(cardId)).toBe(calls);
    expect(await toggleAudits(cardId)).toBe(audits);
    const card = await user.request('GET', `/api/cards/${cardId}`);
    expect(card.json()).toMatchObject({ frozen: true });
  });

  it('a freeze is never refused, however many toggles came before: a stolen session cannot keep the owner from freezing', async () => {
    const user = await registerUser(t.app);
    const cardId = await issuedCard(user);
    for (let i = 0; i < MONEY_RATE_LIMITS.cardUnfreeze.points; i += 1) {
      expect((await toggle(user, cardId, 'freeze')).statusCode).toBe(200);
      expect((await toggle(user, cardId, 'unfreeze')).statusCode).toBe(200);
    }
    expect((await toggle(user, cardId, 'unfreeze')).statusCode).toBe(429);
    // The card is active now: the owner freezes it, at once.
    const frozen = await toggle(user, cardId, 'freeze');
    expect(frozen.statusCode, frozen.body).toBe(200);
    expect(frozen.json()).toMatchObject({ frozen: true });
    // Another user's card is not affected.
    const other = await registerUser(t.app);
    const otherCard = await issuedCard(other);
    expect((await toggle(other, otherCard, 'freeze')).statusCode).toBe(200);
    expect((await toggle(other, otherCard, 'unfreeze')).statusCode).toBe(200);
  });
});
