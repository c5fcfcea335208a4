// The completion's one guarded statement (decision 151) when the world moves under it. A test seam
// runs after the read and the plan and before the statement, so a test can edit the draft,
// complete another combine of the same user or send the same request again at exactly that
// moment. The completion must then be decided on the new rows, never on the ones it read; and
// whatever happens there, every hold is captured once per completed combine and never for a
// refusal or a replay (docs/rules.md#outside-effects).
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { addSource, completeWithQuote, registerUser, startCombine, TEST_MASTERCARD, type ApiUser } from '../../../../tests/helpers/api-client';
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app';
import { cards, combineSources, combines, idempotencyKeys, journals, systemPromos, users } from '../../db/schema';
import { checkLedger } from '../../ledger/check-ledger';
import { completionSeam } from './complete-in-one-statement';

const HOUR_MS = 60 * 60 * 1000;

describe('combine completion in one statement', () => {
  let t: TestApp;
  /** Runs once, at the next try of the statement: after the read and the plan, before the write. */
  let betweenReadAndWrite: (() => Promise<void>) | null = null;
  let statementTries = 0;
  completionSeam.beforeStatement = async () => {
    statementTries += 1;
    const step = betweenReadAndWrite;
    betweenReadAndWrite = null;
    if (step) await step();
  };

  /** A reviewed draft of one card source, with the body that completes it at the figures reviewed. */
  async function reviewedDraft(user: ApiUser, baseInput = '100') {
    const combine = await startCombine(user, baseInput, '0');
    const added = await addSource(user, combine.id, { chargeCents: combine.funding.suggestedChargeCents.card });
    expect(added.statusCode, added.body).toBe(201);
    const choices = { useBoost: false, creationFeeSourceIdx: -1, cardType: 'general' };
    const quote = (await user.request('POST', `/api/combines/${combine.id}/quote`, choices)).json();
    const body = { ...choices, expected: { cardAmountCents: quote.cardAmountCents, totalChargedCents: quote.totalChargedCents, productFeeCents: quote.productFeeCents } };
    return { combineId: combine.id, body };
  }
  const complete = (user: ApiUser, combineId: string, body: unknown, key: string = randomUUID()) =>
    user.request('POST', `/api/combines/${combineId}/complete`, body, { 'idempotency-key': key });
  const cardsOf = (combineId: string) => t.database.db.select().from(cards).where(eq(cards.combineId, combineId));
  const journalsOf = (combineId: string) => t.database.db.select().from(journals).where(eq(journals.referenceId, combineId));
  const combineRow = async (combineId: string) => (await t.database.db.select().from(combines).where(eq(combines.id, combineId)))[0];
  /** Holds captured for this combine, once every committed completion's captures have been sent. */
  const capturesOf = async (combineId: string) => {
    await t.app.effects.drain();
    return t.calls.effective('processor.capture').filter((call) => capturedFor.get(call.reference) === combineId).length;
  };
  // The capture references of each combine's sources (the adapter is called by reference only).
  const capturedFor = new Map<string, string>();
  const rememberCaptures = async (combineId: string) => {
    const sources = await t.database.db.select().from(combineSources).where(eq(combineSources.combineId, combineId));
    for (const source of sources) if (source.authorizationId) capturedFor.set(`capture:${source.authorizationId}`, combineId);
  };

  beforeAll(async () => {
    t = await createTestApp();
    // The launch promo is spent: a completion that would claim a spot goes to the locked transaction.
    await t.database.db.update(systemPromos).set({ first100PromoClaimed: 100 });
  });
  beforeEach(() => {
    statementTries = 0;
  });
  afterEach(async () => {
    betweenReadAndWrite = null;
    if (t) expect((await checkLedger(t.database.db)).problems).toEqual([]);
  });
  afterAll(async () => {
    completionSeam.beforeStatement = null;
    await t?.close();
  });

  it('nothing changes in between: one statement completes the card, and its hold is captured once', async () => {
    const user = await registerUser(t.app);
    const { combineId, body } = await reviewedDraft(user);
    const res = await complete(user, combineId, body);
    expect(res.statusCode, res.body).toBe(201);
    expect(statementTries).toBe(1);
    expect(await cardsOf(combineId)).toHaveLength(1);
    expect((await combineRow(combineId))?.status).toBe('completed');
    await rememberCaptures(combineId);
    expect(await capturesOf(combineId)).toBe(1);
  });

  it('a source added in between: nothing is charged on the figures read; the new figures answer 409 quote_changed', async () => {
    const user = await registerUser(t.app);
    const { combineId, body } = await reviewedDraft(user);
    betweenReadAndWrite = async () => {
      const added = await addSource(user, combineId, { chargeCents: 2_000, cardNumber: TEST_MASTERCARD, provider: 'mastercard' });
      expect(added.statusCode, added.body).toBe(201);
    };
    const res = await complete(user, combineId, body);
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().error.code).toBe('quote_changed');
    expect(await cardsOf(combineId)).toHaveLength(0);
    expect(await journalsOf(combineId)).toHaveLength(0);
    expect((await combineRow(combineId))?.status).not.toBe('completed');
    await rememberCaptures(combineId);
    expect(await capturesOf(combineId)).toBe(0);
  });

  it('another combine of the same user completed in between: both complete, and the user counts both', async () => {
    const user = await registerUser(t.app);
    const first = await reviewedDraft(user);
    const second = await reviewedDraft(user);
    const userId = (await user.request('GET', '/api/me')).json().id as string;
    betweenReadAndWrite = async () => {
      const other = await completeWithQuote(user, second.combineId);
      expect(other.statusCode, other.body).toBe(201);
    };
    const res = await complete(user, first.combineId, first.body);
    expect(res.statusCode, res.body).toBe(201);
    // The first try found the user's row changed and wrote nothing; the second wrote the card
    // (the completion in between tried once too).
    expect(statementTries).toBe(3);
    const [row] = await t.database.db.select().from(users).where(eq(users.id, userId));
    expect(row?.combineTotal).toBe(2);
    expect(await cardsOf(first.combineId)).toHaveLength(1);
    expect(await cardsOf(second.combineId)).toHaveLength(1);
  });

  it('the same request committed in between: the later one returns its answer and writes nothing', async () => {
    const user = await registerUser(t.app);
    const { combineId, body } = await reviewedDraft(user);
    const key = randomUUID();
    let earlier: { statusCode: number; body: string } | undefined;
    betweenReadAndWrite = async () => {
      earlier = await complete(user, combineId, body, key);
    };
    const res = await complete(user, combineId, body, key);
    expect(earlier?.statusCode, earlier?.body).toBe(201);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().card.id).toBe(JSON.parse(earlier!.body).card.id);
    expect(res.headers['idempotent-replayed']).toBe('true');
    expect(await cardsOf(combineId)).toHaveLength(1);
    expect(await journalsOf(combineId)).toHaveLength(1);
    expect(await t.database.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key))).toHaveLength(1);
    await rememberCaptures(combineId);
    expect(await capturesOf(combineId)).toBe(1);
  });

  it('the draft deleted in between: 404, and no card, journal or capture', async () => {
    const user = await registerUser(t.app);
    const { combineId, body } = await reviewedDraft(user);
    await rememberCaptures(combineId);
    betweenReadAndWrite = async () => {
      expect((await user.request('DELETE', `/api/combines/${combineId}`)).statusCode).toBe(204);
    };
    const res = await complete(user, combineId, body);
    expect(res.statusCode, res.body).toBe(404);
    expect(await cardsOf(combineId)).toHaveLength(0);
    expect(await journalsOf(combineId)).toHaveLength(0);
    expect(await capturesOf(combineId)).toBe(0);
  });

  it('a key older than the retention window counts as new: the locked transaction reuses it for another draft', async () => {
    const user = await registerUser(t.app);
    const userId = (await user.request('GET', '/api/me')).json().id as string;
    const first = await reviewedDraft(user);
    const second = await reviewedDraft(user);
    const key = randomUUID();
    expect((await complete(user, first.combineId, first.body, key)).statusCode).toBe(201);
    await t.database.db.update(idempotencyKeys).set({ createdAt: new Date(Date.now() - 25 * HOUR_MS) }).where(eq(idempotencyKeys.userId, userId));
    statementTries = 0;
    const again = await complete(user, second.combineId, second.body, key);
    expect(again.statusCode, again.body).toBe(201);
    expect(again.headers['idempotent-replayed']).toBeUndefined();
    expect(again.json().combine.id).toBe(second.combineId);
    expect(statementTries).toBe(0);
    expect(await cardsOf(second.combineId)).toHaveLength(1);
  });

  it('a key reused for another draft is refused with 422 and writes nothing; the first request replays', async () => {
    const user = await registerUser(t.app);
    const first = await reviewedDraft(user);
    const second = await reviewedDraft(user);
    const key = randomUUID();
    const answered = await complete(user, first.combineId, first.body, key);
    expect(answered.statusCode).toBe(201);
    const other = await complete(user, second.combineId, second.body, key);
    expect(other.statusCode, other.body).toBe(422);
    expect(other.json().error.code).toBe('idempotency_mismatch');
    expect(await cardsOf(second.combineId)).toHaveLength(0);
    const replay = await complete(user, first.combineId, first.body, key);
    expect(replay.statusCode).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json()).toEqual(answered.json());
    expect(await cardsOf(first.combineId)).toHaveLength(1);
  });

  it('a refusal is decided by the locked transaction: figures that differ from the review answer 409 without trying the statement', async () => {
    const user = await registerUser(t.app);
    const { combineId, body } = await reviewedDraft(user);
    const res = await complete(user, combineId, { ...body, expected: { ...body.expected, totalChargedCents: body.expected.totalChargedCents + 1 } });
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().error.code).toBe('quote_changed');
    expect(statementTries).toBe(0);
    expect(await cardsOf(combineId)).toHaveLength(0);
  });
});
