// The cash-out's one statement (decision 018) when the world moves under it. A test seam runs
// after the user's facts are known (from the read cache's hint or a read) and before the
// statement, so a test can change the card, the plan or the payout methods at exactly that
// moment; the cash-out must then be decided on the new figures, never on the ones it had. And
// whatever happens there, the payout adapter is called once per cash-out that debited, after its
// commit, and never for a refusal or a replay (docs/rules.md#outside-effects).
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { registerUser, type ApiUser } from '../../../../tests/helpers/api-client';
import { insertFundedCard, insertPayoutMethod } from '../../../../tests/helpers/fixtures';
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app';
import { cashoutSeam } from './cashout-in-one-statement';
import { cards, idempotencyKeys, payoutMethods, transactions, users } from '../../db/schema';
import { checkLedger } from '../../ledger/check-ledger';

const HOUR_MS = 60 * 60 * 1000;

describe('cash-out in one statement', () => {
  let t: TestApp;
  /** Runs once, at the next try of the statement: after the cash-out's facts, before its statement. */
  let betweenStatements: (() => Promise<void>) | null = null;
  let statementTries = 0;
  cashoutSeam.beforeStatement = async () => {
    statementTries += 1;
    const step = betweenStatements;
    betweenStatements = null;
    if (step) await step();
  };
  /** Payouts the provider made for this card's cash-outs, once every committed one has been sent. */
  const payoutsSent = async (cardId: string) => {
    await t.app.effects.drain();
    const references = new Set((await cashoutRows(cardId)).filter((row) => row.type === 'cashout').map((row) => `cashout:${row.id}`));
    return t.calls.effective('payouts.send').filter((call) => references.has(call.reference)).length;
  };

  /** A user with a funded card and, unless `withAch` is false, ACH saved with a registered destination (decision 172). */
  async function userWithCard(amountCents: number, withAch = true): Promise<{ user: ApiUser; userId: string; cardId: string }> {
    const user = await registerUser(t.app);
    const userId = (await user.request('GET', '/api/me')).json().id as string;
    const cardId = await insertFundedCard(t.database.db, userId, amountCents);
    if (withAch) await insertPayoutMethod(t.database.db, userId, 'ach');
    return { user, userId, cardId };
  }
  const cashout = (user: ApiUser, body: Record<string, unknown>, key: string = randomUUID()) =>
    user.request('POST', '/api/cashouts', body, { 'idempotency-key': key });
  /** A purchase through the API: a real, journaled change of the card's balance. */
  const spend = async (user: ApiUser, cardId: string, amountCents: number) => {
    const res = await user.request('POST', `/api/cards/${cardId}/purchases`, { merchant: 'Corner Shop', amountCents }, { 'idempotency-key': randomUUID() });
    expect(res.statusCode, res.body).toBe(201);
  };
  const remaining = async (cardId: string) => (await t.database.db.select().from(cards).where(eq(cards.id, cardId)))[0]!.remainingAmountCents;
  const cashoutRows = (cardId: string) => t.database.db.select().from(transactions).where(eq(transactions.cardId, cardId));

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterEach(async () => {
    betweenStatements = null;
    if (t) expect((await checkLedger(t.database.db)).problems).toEqual([]);
  });
  afterAll(async () => {
    cashoutSeam.beforeStatement = null;
    await t?.close();
  });

  it('the balance changed in between: the debit takes what the card holds then, and the answer says so', async () => {
    const { user, cardId } = await userWithCard(10_000);
    betweenStatements = () => spend(user, cardId, 4_000);
    const res = await cashout(user, { cardId, amountCents: 5_000, payoutMethod: 'ach' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().card.remainingAmountCents).toBe(1_000);
    expect(await remaining(cardId)).toBe(1_000);
    expect((await cashoutRows(cardId)).filter((row) => row.type === 'cashout')).toHaveLength(1);
    expect(await payoutsSent(cardId)).toBe(1);
  });

  it('the balance fell below the amount in between: the answer is the refusal the new balance calls for', async () => {
    const { user, cardId } = await userWithCard(10_000);
    betweenStatements = () => spend(user, cardId, 7_000);
    await t.app.effects.drain();
    const sentBefore = t.calls.calls.filter((call) => call.op === 'payouts.send').length;
    const res = await cashout(user, { cardId, amountCents: 5_000, payoutMethod: 'ach' });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error.message).toContain('$30.00');
    expect(await remaining(cardId)).toBe(3_000);
    expect((await cashoutRows(cardId)).filter((row) => row.type === 'cashout')).toHaveLength(0);
    // Refused after its facts were read: nothing was sent (the payout used to go out before the check).
    await t.app.effects.drain();
    expect(t.calls.calls.filter((call) => call.op === 'payouts.send')).toHaveLength(sentBefore);
  });

  it('the plan changed in between: the fee is the new plan’s', async () => {
    const { user, userId, cardId } = await userWithCard(10_000);
    betweenStatements = async () => {
      await t.database.db.update(users).set({ subscription: 'premium' }).where(eq(users.id, userId));
    };
    const res = await cashout(user, { cardId, amountCents: 10_000, payoutMethod: 'ach' });
    expect(res.statusCode, res.body).toBe(201);
    // Free takes 1%, Premium 0.5% (docs/rules.md#fee-examples).
    expect(res.json().cashout.feeCents).toBe(50);
    expect((await cashoutRows(cardId))[0]).toMatchObject({ feeCents: 50, netAmountCents: 9_950 });
  });

  it('the payout methods changed in between: a method no longer saved is refused', async () => {
    const { user, userId, cardId } = await userWithCard(10_000);
    // Premium allows ACH and PayPal; with saved methods, only the saved ones (docs/rules.md#payout-methods-by-plan).
    await t.database.db.update(users).set({ subscription: 'premium' }).where(eq(users.id, userId));
    await insertPayoutMethod(t.database.db, userId, 'paypal');
    betweenStatements = async () => {
      await t.database.db.delete(payoutMethods).where(eq(payoutMethods.userId, userId));
      await insertPayoutMethod(t.database.db, userId, 'ach');
    };
    const res = await cashout(user, { cardId, amountCents: 1_000, payoutMethod: 'paypal' });
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json().error.code).toBe('payout_method_not_saved');
    expect(await remaining(cardId)).toBe(10_000);
  });

  it('facts that keep changing under the statement: the locked transaction cashes out after two tries', async () => {
    const { user, userId, cardId } = await userWithCard(10_000);
    let flips = 0;
    const flip = async () => {
      flips += 1;
      await t.database.db.update(users).set({ subscription: flips % 2 === 1 ? 'premium' : 'free' }).where(eq(users.id, userId));
      // The next payout (the second try's) changes the plan again.
      if (flips < 2) betweenStatements = flip;
    };
    betweenStatements = flip;
    statementTries = 0;
    const res = await cashout(user, { cardId, amountCents: 10_000, payoutMethod: 'ach' });
    expect(res.statusCode, res.body).toBe(201);
    // Two tries of the statement, then the locked transaction, at the plan in force: Free, 1%.
    expect(statementTries).toBe(2);
    expect(res.json().cashout.feeCents).toBe(100);
    expect((await cashoutRows(cardId)).filter((row) => row.type === 'cashout')).toHaveLength(1);
    // Three tries, one payout: the tries that wrote nothing sent nothing.
    expect(await payoutsSent(cardId)).toBe(1);
  });

  // Decision 172: a payout goes only to a destination the payout provider knows. The core refuses a
  // method without one; the statement's re-check of the destinations keeps that true when they
  // change between the read and the statement, and the locked transaction decides it the same way.
  describe('a method without a registered destination is refused, on every path (decision 172)', () => {
    it('its destination gone between the read and the statement: the statement steps aside, and the fresh read refuses; nothing moves', async () => {
      const { user, userId, cardId } = await userWithCard(10_000);
      // Saved again without details (an API client older than payout details) while the cash-out was on its way.
      betweenStatements = async () => {
        await t.database.db.update(payoutMethods).set({ destinationRef: null }).where(eq(payoutMethods.userId, userId));
      };
      statementTries = 0;
      const key = randomUUID();
      const res = await cashout(user, { cardId, amountCents: 1_000, payoutMethod: 'ach' }, key);
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json().error.code).toBe('payout_method_needs_details');
      expect(statementTries).toBe(1);
      expect(await remaining(cardId)).toBe(10_000);
      expect(await cashoutRows(cardId)).toEqual([]);
      expect(await t.database.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key))).toEqual([]);
      expect(await payoutsSent(cardId)).toBe(0);
    });

    it('the locked transaction (an expired key reused) refuses it too, and the key it claimed is freed', async () => {
      const { user, userId, cardId } = await userWithCard(10_000);
      const key = randomUUID();
      expect((await cashout(user, { cardId, amountCents: 1_000, payoutMethod: 'ach' }, key)).statusCode).toBe(201);
      await t.database.db.update(idempotencyKeys).set({ createdAt: new Date(Date.now() - 25 * HOUR_MS) }).where(eq(idempotencyKeys.userId, userId));
      const [expired] = await t.database.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key));
      await t.database.db.update(payoutMethods).set({ destinationRef: null }).where(eq(payoutMethods.userId, userId));
      // The expired key is found (by the read, or by a statement on the hint) before any refusal is
      // decided, and sends the cash-out to the locked transaction: that is where this one is refused.
      const refused = await cashout(user, { cardId, amountCents: 2_000, payoutMethod: 'ach' }, key);
      expect(refused.statusCode, refused.body).toBe(409);
      expect(refused.json().error.code).toBe('payout_method_needs_details');
      expect(await remaining(cardId)).toBe(9_000);
      expect(await cashoutRows(cardId)).toHaveLength(1);
      // Its claim rolled back with the refusal: the key is as it was, and can be used again.
      expect(await t.database.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key))).toEqual([expired]);
      await t.database.db.update(payoutMethods).set({ destinationRef: 'demo_dest_entered_again' }).where(eq(payoutMethods.userId, userId));
      const again = await cashout(user, { cardId, amountCents: 2_000, payoutMethod: 'ach' }, key);
      expect(again.statusCode, again.body).toBe(201);
      expect(await remaining(cardId)).toBe(7_000);
      expect(await payoutsSent(cardId)).toBe(2);
    });
  });

  describe('the payout carries the destination the debit was decided with (decision 168)', () => {
    /** Saves ACH with its details through the API (registered with the demo provider); its destination. */
    const saveAch = async (user: ApiUser, userId: string, account: string) => {
      await t.database.db.delete(payoutMethods).where(eq(payoutMethods.userId, userId));
      const res = await user.request('POST', '/api/payout-methods', { method: 'ach', detail: account, routingNumber: '021000021' });
      expect(res.statusCode, res.body).toBe(201);
      const [row] = await t.database.db.select().from(payoutMethods).where(eq(payoutMethods.userId, userId));
      expect(row!.destinationRef).toMatch(/^demo_dest_/);
      return row!.destinationRef!;
    };
    const sentTo = async (payoutId: string) => {
      await t.app.effects.drain();
      await t.app.effects.idle();
      return t.calls.effective('payouts.send').filter((call) => call.reference === payoutId).map((call) => call.destination);
    };

    it('the method saved again with other details in between: the statement sees it, and the payout goes to the new destination', async () => {
      const { user, userId, cardId } = await userWithCard(10_000);
      const first = await saveAch(user, userId, '11112222');
      // A first cash-out leaves this instance a hint of the facts, destination included.
      const warm = await cashout(user, { cardId, amountCents: 1_000, payoutMethod: 'ach' });
      expect(warm.statusCode, warm.body).toBe(201);
      expect(await sentTo(warm.json().payoutId)).toEqual([first]);
      // Between the facts (the hint) and the statement, ACH is removed and saved again: same
      // method, other account. A check of the methods alone would pay the old destination.
      let second = '';
      betweenStatements = async () => {
        second = await saveAch(user, userId, '33334444');
      };
      statementTries = 0;
      const res = await cashout(user, { cardId, amountCents: 1_000, payoutMethod: 'ach' });
      expect(res.statusCode, res.body).toBe(201);
      expect(statementTries).toBe(2);
      expect(second).not.toBe(first);
      expect(await sentTo(res.json().payoutId)).toEqual([second]);
    });

    it('the destination changing under every try: the locked transaction pays the one saved when it runs', async () => {
      const { user, userId, cardId } = await userWithCard(10_000);
      const destinations = [await saveAch(user, userId, '11112222')];
      const change = async () => {
        destinations.push(await saveAch(user, userId, `5555${destinations.length}000`));
        if (destinations.length < 3) betweenStatements = change;
      };
      betweenStatements = change;
      statementTries = 0;
      const res = await cashout(user, { cardId, amountCents: 2_000, payoutMethod: 'ach' });
      expect(res.statusCode, res.body).toBe(201);
      expect(statementTries).toBe(2);
      expect(new Set(destinations).size).toBe(3);
      expect(await sentTo(res.json().payoutId)).toEqual([destinations[2]]);
    });
  });

  // The locked transaction waits for the user's lock when a method change holds it. What it then
  // reads must be what that change committed: a statement sees the database as it was when it
  // began, so the methods are read by a statement after the lock, not with it (review of 168).
  it('the locked transaction, having waited for a method change, pays the destination that change committed', async () => {
    const { user, userId, cardId } = await userWithCard(10_000, false);
    await t.database.db.insert(payoutMethods).values({ userId, method: 'ach', destinationRef: 'demo_dest_before' });
    let committed: Promise<void> = Promise.resolve();
    let flips = 0;
    const flip = async () => {
      flips += 1;
      await t.database.db.update(users).set({ subscription: flips % 2 === 1 ? 'premium' : 'free' }).where(eq(users.id, userId));
      if (flips < 2) {
        betweenStatements = flip;
        return;
      }
      // Before the second try steps aside: a method change takes the user's lock (as every one
      // does), saves another destination, and commits only once the locked transaction waits.
      let locked!: () => void;
      const holding = new Promise<void>((resolve) => (locked = resolve));
      committed = t.database.db.transaction(async (tx) => {
        await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
        await tx.update(payoutMethods).set({ destinationRef: 'demo_dest_after' }).where(eq(payoutMethods.userId, userId));
        locked();
        await new Promise((resolve) => setTimeout(resolve, 300));
      });
      await holding;
    };
    betweenStatements = flip;
    statementTries = 0;
    const res = await cashout(user, { cardId, amountCents: 2_000, payoutMethod: 'ach' });
    await committed;
    expect(res.statusCode, res.body).toBe(201);
    expect(statementTries).toBe(2);
    await t.app.effects.drain();
    await t.app.effects.idle();
    expect(t.calls.effective('payouts.send').filter((call) => call.reference === res.json().payoutId).map((call) => call.destination)).toEqual(['demo_dest_after']);
  });

  it('a payout method saved since the facts were cached is usable at once: a refusal is never decided on a hint', async () => {
    const { user, userId, cardId } = await userWithCard(10_000);
    await t.database.db.update(users).set({ subscription: 'premium' }).where(eq(users.id, userId));
    expect((await cashout(user, { cardId, amountCents: 1_000, payoutMethod: 'ach' })).statusCode).toBe(201);
    // Saved elsewhere (another instance, say): the hint this instance holds does not know it.
    await insertPayoutMethod(t.database.db, userId, 'paypal');
    const res = await cashout(user, { cardId, amountCents: 1_000, payoutMethod: 'paypal' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().cashout.payoutMethod).toBe('paypal');
  });

  it('a retried cash-out that emptied the card gets its first answer, not "no balance"', async () => {
    const { user, cardId } = await userWithCard(2_500);
    const key = randomUUID();
    const body = { cardId, amountCents: 2_500, payoutMethod: 'ach' };
    const first = await cashout(user, body, key);
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json().card).toMatchObject({ status: 'cashed_out', remainingAmountCents: 0 });
    const retry = await cashout(user, body, key);
    expect(retry.statusCode, retry.body).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json()).toEqual(first.json());
  });

  it('the answer stored with the key is the answer given: the card figures the statement wrote', async () => {
    const { user, cardId } = await userWithCard(10_000);
    await spend(user, cardId, 1_500);
    const key = randomUUID();
    const first = await cashout(user, { cardId, amountCents: 3_000, payoutMethod: 'ach' }, key);
    expect(first.statusCode, first.body).toBe(201);
    // Spent counts the purchase and the cash-out alike (docs/rules.md#cards): 1,500 + 3,000.
    expect(first.json().card).toEqual({ id: cardId, status: 'active', remainingAmountCents: 5_500, amountSpentCents: 4_500 });
    expect(first.json().cashout.cardLast4).toBe('4242');
    const [stored] = await t.database.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key));
    expect(stored?.responseBody).toEqual(first.json());
  });

  it('the same key sent again during the first one: one cash-out, and the second gets its answer', async () => {
    const { user, cardId } = await userWithCard(10_000);
    const key = randomUUID();
    const body = { cardId, amountCents: 1_000, payoutMethod: 'ach' };
    let second: Awaited<ReturnType<typeof cashout>> | undefined;
    // The retry runs while the first is between its statements, so both read "no such key".
    betweenStatements = async () => {
      second = await cashout(user, body, key);
    };
    const first = await cashout(user, body, key);
    expect(first.statusCode, first.body).toBe(201);
    expect(second?.statusCode, second?.body).toBe(201);
    expect(second?.json()).toEqual(first.json());
    expect(await remaining(cardId)).toBe(9_000);
    expect(await cashoutRows(cardId)).toHaveLength(1);
    expect(await payoutsSent(cardId)).toBe(1);
  });

  it('a key older than the retention window counts as new (the locked transaction reuses it)', async () => {
    const { user, userId, cardId } = await userWithCard(10_000);
    const key = randomUUID();
    expect((await cashout(user, { cardId, amountCents: 1_000, payoutMethod: 'ach' }, key)).statusCode).toBe(201);
    await t.database.db.update(idempotencyKeys).set({ createdAt: new Date(Date.now() - 25 * HOUR_MS) }).where(eq(idempotencyKeys.userId, userId));
    const again = await cashout(user, { cardId, amountCents: 2_000, payoutMethod: 'ach' }, key);
    expect(again.statusCode, again.body).toBe(201);
    expect(again.headers['idempotent-replayed']).toBeUndefined();
    expect(await remaining(cardId)).toBe(7_000);
  });

  it('a key reused for a different cash-out is refused with 422, and nothing moves', async () => {
    const { user, cardId } = await userWithCard(10_000);
    const key = randomUUID();
    expect((await cashout(user, { cardId, amountCents: 1_000, payoutMethod: 'ach' }, key)).statusCode).toBe(201);
    const other = await cashout(user, { cardId, amountCents: 1_500, payoutMethod: 'ach' }, key);
    expect(other.statusCode, other.body).toBe(422);
    expect(other.json().error.code).toBe('idempotency_mismatch');
    const replay = await cashout(user, { cardId, amountCents: 1_000, payoutMethod: 'ach' }, key);
    expect(replay.statusCode).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(await remaining(cardId)).toBe(9_000);
  });
});
