// The cash-out when the world moves while it waits (money/run-money-operation.ts): its reader locks
// the user, then the card, so a change that holds either lock when the cash-out arrives commits
// first, and the cash-out must be decided on what that change committed, never on what it saw
// before it waited. Each change here is a real transaction on its own connection, committed only
// once PostgreSQL shows the cash-out waiting for its lock. And whatever happens, the payout is sent
// once per accepted cash-out, after its commit, and never for a refusal or a replay
// (docs/rules.md#outside-effects).
import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { registerUser, type ApiUser } from '../../../../tests/helpers/api-client';
import { insertFundedCard, insertPayoutMethod } from '../../../../tests/helpers/fixtures';
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app';
import type { Tx } from '../../db/client';
import { cards, idempotencyKeys, payoutMethods, transactions, users } from '../../db/schema';
import { cardAccountCode, SYSTEM_ACCOUNTS } from '../../ledger/accounts';
import { debitCard } from '../../ledger/card-accounts';
import { checkLedger } from '../../ledger/check-ledger';
import { postJournal, rowsOf } from '../../ledger/post-journal';

const HOUR_MS = 60 * 60 * 1000;

describe('a cash-out decides on what is committed when it holds its locks', () => {
  let t: TestApp;

  /** A user with a funded card and ACH saved with a registered destination (decision 172). */
  async function userWithCard(amountCents: number): Promise<{ user: ApiUser; userId: string; cardId: string }> {
    const user = await registerUser(t.app);
    const userId = (await user.request('GET', '/api/me')).json().id as string;
    const cardId = await insertFundedCard(t.database.db, userId, amountCents);
    await insertPayoutMethod(t.database.db, userId, 'ach');
    return { user, userId, cardId };
  }
  const cashout = (user: ApiUser, body: Record<string, unknown>, key: string = randomUUID()) =>
    user.request('POST', '/api/cashouts', body, { 'idempotency-key': key });
  const remaining = async (cardId: string) => (await t.database.db.select().from(cards).where(eq(cards.id, cardId)))[0]!.remainingAmountCents;
  const cashoutRows = (cardId: string) => t.database.db.select().from(transactions).where(eq(transactions.cardId, cardId));
  const keyRows = (key: string) => t.database.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key));

  /** Every committed cash-out's payout sent (they go out after the answer): where the calls stand. */
  async function mark(): Promise<number> {
    await t.app.effects.drain();
    await t.app.effects.idle();
    return t.calls.calls.length;
  }
  /** The payouts sent since `from`, once every committed cash-out's payout has gone out. */
  async function payoutsSince(from: number) {
    await mark();
    return t.calls.calls.slice(from).filter((call) => call.op === 'payouts.send');
  }

  /** Resolves once `count` connections of this database wait for a lock; fails if none ever does. */
  async function lockWaiters(count: number): Promise<void> {
    const deadline = Date.now() + 5_000;
    for (;;) {
      const [row] = rowsOf<{ n: number }>(
        await t.database.db.execute(sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`),
      );
      if (Number(row?.n) >= count) return;
      if (Date.now() > deadline) throw new Error(`${count} request(s) should be waiting for a lock, ${row?.n ?? 0} are`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  /**
   * Runs `change` in a transaction of its own, which takes its locks first; starts the requests
   * while it holds them, commits once they all wait, and gives their answers.
   */
  async function whileLocked<T>(change: (tx: Tx) => Promise<void>, requests: () => Array<Promise<T>>): Promise<T[]> {
    let started: Array<Promise<T>> = [];
    await t.database.db.transaction(async (tx) => {
      await change(tx);
      started = requests();
      await lockWaiters(started.length);
    });
    return Promise.all(started);
  }
  const lockUser = (tx: Tx, userId: string) => tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
  /** A journaled spend of the card (the ledger stays balanced), which holds the card's lock until commit. */
  async function spendOnCard(tx: Tx, userId: string, cardId: string, amountCents: number): Promise<void> {
    expect(await debitCard(tx, { cardId, userId, amountCents, validAt: null, statusAtZero: null })).not.toBeNull();
    await postJournal(tx, {
      kind: 'test',
      userId,
      referenceId: cardId,
      entries: [
        { accountCode: cardAccountCode(cardId), amountCents: -amountCents },
        { accountCode: SYSTEM_ACCOUNTS.merchants, amountCents },
      ],
    });
  }

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterEach(async () => {
    // docs/rules.md#ledger: whatever moved, the ledger balances and matches every card.
    if (t) expect((await checkLedger(t.database.db)).problems).toEqual([]);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('the plan changed while it waited for the user: the fee is the new plan’s', async () => {
    const { user, userId, cardId } = await userWithCard(10_000);
    const from = await mark();
    const [res] = await whileLocked(
      async (tx) => {
        await lockUser(tx, userId);
        await tx.update(users).set({ subscription: 'premium' }).where(eq(users.id, userId));
      },
      () => [cashout(user, { cardId, amountCents: 10_000, payoutMethod: 'ach' })],
    );
    expect(res!.statusCode, res!.body).toBe(201);
    // Free takes 1%, Premium 0.5% (docs/rules.md#fee-examples).
    expect(res!.json().cashout.feeCents).toBe(50);
    expect(await cashoutRows(cardId)).toMatchObject([{ feeCents: 50, netAmountCents: 9_950 }]);
    expect((await payoutsSince(from)).map((call) => [call.reference, call.amountCents])).toEqual([[res!.json().payoutId, 9_950]]);
  });

  it('the method saved again while it waited for the user: the payout goes to the destination that change committed (decision 168)', async () => {
    const { user, userId, cardId } = await userWithCard(10_000);
    const from = await mark();
    const [res] = await whileLocked(
      async (tx) => {
        // As every change of the payout methods does, it locks the user first and updates the
        // user's row (payout-methods-service.ts), which a cash-out read with versions re-checks.
        await lockUser(tx, userId);
        await tx.update(payoutMethods).set({ destinationRef: 'demo_dest_after' }).where(eq(payoutMethods.userId, userId));
        await tx.update(users).set({ lastUpdated: new Date() }).where(eq(users.id, userId));
      },
      () => [cashout(user, { cardId, amountCents: 2_000, payoutMethod: 'ach' })],
    );
    expect(res!.statusCode, res!.body).toBe(201);
    expect((await payoutsSince(from)).map((call) => [call.reference, call.destination])).toEqual([[res!.json().payoutId, 'demo_dest_after']]);
  });

  it('the method removed while it waited for the user: refused as not saved, nothing moves or is sent', async () => {
    const { user, userId, cardId } = await userWithCard(10_000);
    // Premium allows ACH and PayPal; with saved methods, only the saved ones (docs/rules.md#payout-methods-by-plan).
    await t.database.db.update(users).set({ subscription: 'premium' }).where(eq(users.id, userId));
    await insertPayoutMethod(t.database.db, userId, 'paypal');
    const from = await mark();
    const [res] = await whileLocked(
      async (tx) => {
        await lockUser(tx, userId);
        await tx.delete(payoutMethods).where(and(eq(payoutMethods.userId, userId), eq(payoutMethods.method, 'paypal')));
        await tx.update(users).set({ lastUpdated: new Date() }).where(eq(users.id, userId));
      },
      () => [cashout(user, { cardId, amountCents: 1_000, payoutMethod: 'paypal' })],
    );
    expect(res!.statusCode, res!.body).toBe(403);
    expect(res!.json().error.code).toBe('payout_method_not_saved');
    expect(await remaining(cardId)).toBe(10_000);
    expect(await payoutsSince(from)).toEqual([]);
  });

  it('the card spent while it waited for the card: the debit takes what the card then holds, and the answer says so', async () => {
    const { user, userId, cardId } = await userWithCard(10_000);
    const from = await mark();
    const [res] = await whileLocked(
      (tx) => spendOnCard(tx, userId, cardId, 4_000),
      () => [cashout(user, { cardId, amountCents: 5_000, payoutMethod: 'ach' })],
    );
    expect(res!.statusCode, res!.body).toBe(201);
    expect(res!.json().card).toEqual({ id: cardId, status: 'active', remainingAmountCents: 1_000, amountSpentCents: 9_000 });
    expect(await remaining(cardId)).toBe(1_000);
    expect((await payoutsSince(from)).map((call) => call.reference)).toEqual([res!.json().payoutId]);
  });

  it('the card spent below the amount while it waited: the refusal the new balance calls for, nothing sent', async () => {
    const { user, userId, cardId } = await userWithCard(10_000);
    const from = await mark();
    const key = randomUUID();
    const [res] = await whileLocked(
      (tx) => spendOnCard(tx, userId, cardId, 7_000),
      () => [cashout(user, { cardId, amountCents: 5_000, payoutMethod: 'ach' }, key)],
    );
    expect(res!.statusCode, res!.body).toBe(400);
    expect(res!.json().error.message).toContain('$30.00');
    expect(await remaining(cardId)).toBe(3_000);
    expect(await cashoutRows(cardId)).toEqual([]);
    expect(await keyRows(key)).toEqual([]);
    expect(await payoutsSince(from)).toEqual([]);
  });

  it('the same key sent twice at once: one cash-out, one payout, and the other gets its answer', async () => {
    const { user, userId, cardId } = await userWithCard(10_000);
    const key = randomUUID();
    const body = { cardId, amountCents: 1_000, payoutMethod: 'ach' };
    const from = await mark();
    // Held at the user's lock, both are in flight together when it is released.
    const answers = await whileLocked(
      async (tx) => {
        await lockUser(tx, userId);
      },
      () => [cashout(user, body, key), cashout(user, body, key)],
    );
    expect(answers.map((res) => res.statusCode)).toEqual([201, 201]);
    expect(answers.map((res) => res.headers['idempotent-replayed'] ?? 'first').sort()).toEqual(['first', 'true']);
    expect(answers[1]!.json()).toEqual(answers[0]!.json());
    expect(await remaining(cardId)).toBe(9_000);
    expect(await cashoutRows(cardId)).toHaveLength(1);
    expect((await payoutsSince(from)).map((call) => call.reference)).toEqual([answers[0]!.json().payoutId]);
  });

  it('with nothing in its way, a cash-out is one unlocked read and one write, in no transaction (decision 188)', async () => {
    const { user, cardId } = await userWithCard(10_000);
    await cashout(user, { cardId, amountCents: 1_000, payoutMethod: 'ach' }); // connections warm, statements prepared
    const texts: string[] = [];
    const query = pg.Client.prototype.query;
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      const first = args[0] as string | { text?: string; name?: string };
      texts.push(typeof first === 'string' ? first : (first.name ?? first.text ?? '?'));
      return (query as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof query;
    try {
      const res = await cashout(user, { cardId, amountCents: 1_000, payoutMethod: 'ach' });
      expect(res.statusCode, res.body).toBe(201);
    } finally {
      pg.Client.prototype.query = query;
    }
    // Beside the rate limiter's counter and the outbox marking the payout done after the answer.
    expect(texts.filter((text) => text.startsWith('cashout_'))).toEqual(['cashout_read_versions', 'cashout_write_versions']);
    expect(texts.filter((text) => /^(begin|commit)/i.test(text))).toEqual([]);
    expect(await remaining(cardId)).toBe(8_000);
  });

  it('every change of the payout methods changes the user row’s version, which the cash-out read with versions re-checks', async () => {
    const user = await registerUser(t.app);
    const userId = (await user.request('GET', '/api/me')).json().id as string;
    await t.database.db.update(users).set({ subscription: 'premium' }).where(eq(users.id, userId));
    const version = async () => rowsOf<{ v: string }>(await t.database.db.execute(sql`select xmin::text as v from users where id = ${userId}`))[0]!.v;
    const changes: Array<[string, () => Promise<{ statusCode: number; body: string }>]> = [
      ['saved without details', () => user.request('POST', '/api/payout-methods', { method: 'ach' })],
      ['its details entered', () => user.request('POST', '/api/payout-methods', { method: 'ach', detail: '7305 9911 4628 53', routingNumber: '2560-7497-4' })],
      ['another saved', () => user.request('POST', '/api/payout-methods', { method: 'paypal', detail: 'someone@example.com' })],
      ['the preferred one chosen', () => user.request('PUT', '/api/payout-methods/preferred', { method: 'paypal' })],
      ['one removed', () => user.request('DELETE', '/api/payout-methods/paypal')],
    ];
    for (const [change, request] of changes) {
      const before = await version();
      const res = await request();
      expect(res.statusCode, `${change}: ${res.body}`).toBeLessThan(300);
      expect(await version(), change).not.toBe(before);
    }
  });

  it('a retried cash-out that emptied the card gets its first answer, not "no balance", and sends nothing again', async () => {
    const { user, cardId } = await userWithCard(2_500);
    const key = randomUUID();
    const body = { cardId, amountCents: 2_500, payoutMethod: 'ach' };
    const first = await cashout(user, body, key);
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json().card).toMatchObject({ status: 'cashed_out', remainingAmountCents: 0 });
    const from = await mark();
    const retry = await cashout(user, body, key);
    expect(retry.statusCode, retry.body).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json()).toEqual(first.json());
    expect((await keyRows(key))[0]?.responseBody).toEqual(first.json());
    expect(await payoutsSince(from)).toEqual([]);
  });

  it('a key reused for another cash-out: 422, nothing moves, and the first answer stays the key’s', async () => {
    const { user, cardId } = await userWithCard(10_000);
    const key = randomUUID();
    expect((await cashout(user, { cardId, amountCents: 1_000, payoutMethod: 'ach' }, key)).statusCode).toBe(201);
    const from = await mark();
    const other = await cashout(user, { cardId, amountCents: 1_500, payoutMethod: 'ach' }, key);
    expect(other.statusCode, other.body).toBe(422);
    expect(other.json().error.code).toBe('idempotency_mismatch');
    const replay = await cashout(user, { cardId, amountCents: 1_000, payoutMethod: 'ach' }, key);
    expect(replay.statusCode).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(await remaining(cardId)).toBe(9_000);
    expect(await payoutsSince(from)).toEqual([]);
  });

  it('a key older than the retention window counts as new', async () => {
    const { user, userId, cardId } = await userWithCard(10_000);
    const key = randomUUID();
    expect((await cashout(user, { cardId, amountCents: 1_000, payoutMethod: 'ach' }, key)).statusCode).toBe(201);
    await t.database.db.update(idempotencyKeys).set({ createdAt: new Date(Date.now() - 25 * HOUR_MS) }).where(eq(idempotencyKeys.userId, userId));
    const from = await mark();
    const again = await cashout(user, { cardId, amountCents: 2_000, payoutMethod: 'ach' }, key);
    expect(again.statusCode, again.body).toBe(201);
    expect(again.headers['idempotent-replayed']).toBeUndefined();
    expect(await remaining(cardId)).toBe(7_000);
    expect((await payoutsSince(from)).map((call) => call.reference)).toEqual([again.json().payoutId]);
  });

  // Decision 172: nothing is paid to a method without a registered destination.
  it('a method without a registered destination: 409, nothing moves or is sent, and the key is freed', async () => {
    const { user, userId, cardId } = await userWithCard(10_000);
    const expiredKey = randomUUID();
    expect((await cashout(user, { cardId, amountCents: 1_000, payoutMethod: 'ach' }, expiredKey)).statusCode).toBe(201);
    await t.database.db.update(idempotencyKeys).set({ createdAt: new Date(Date.now() - 25 * HOUR_MS) }).where(eq(idempotencyKeys.userId, userId));
    const [expired] = await keyRows(expiredKey);
    await t.database.db.update(payoutMethods).set({ destinationRef: null }).where(eq(payoutMethods.userId, userId));
    const from = await mark();
    const newKey = randomUUID();
    for (const key of [newKey, expiredKey]) {
      const refused = await cashout(user, { cardId, amountCents: 2_000, payoutMethod: 'ach' }, key);
      expect(refused.statusCode, refused.body).toBe(409);
      expect(refused.json().error.code).toBe('payout_method_needs_details');
    }
    expect(await remaining(cardId)).toBe(9_000);
    expect(await cashoutRows(cardId)).toHaveLength(1);
    // The claims rolled back with the refusal: a new key left no row, the expired one is as it was.
    expect(await keyRows(newKey)).toEqual([]);
    expect(await keyRows(expiredKey)).toEqual([expired]);
    expect(await payoutsSince(from)).toEqual([]);
    // Its details entered again, the same key cashes out.
    await t.database.db.update(payoutMethods).set({ destinationRef: 'demo_dest_entered_again' }).where(eq(payoutMethods.userId, userId));
    const again = await cashout(user, { cardId, amountCents: 2_000, payoutMethod: 'ach' }, expiredKey);
    expect(again.statusCode, again.body).toBe(201);
    expect(await remaining(cardId)).toBe(7_000);
    expect((await payoutsSince(from)).map((call) => [call.reference, call.destination])).toEqual([[again.json().payoutId, 'demo_dest_entered_again']]);
  });
});
