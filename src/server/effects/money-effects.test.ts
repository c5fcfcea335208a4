// docs/rules.md#outside-effects with counted adapters: outside calls happen after the commit that decided them,
// once per thing to do (captures per hold, voids per hold, payouts per cash-out and rebate), never
// for a refusal or a replay; and the drain retries through failures, timeouts and lost answers
// until the outside system confirms, without ever doing a thing twice.
import { randomUUID } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { addSource, completeWithQuote, PAYOUT_DETAILS, registerUser, startCombine, type ApiUser } from '../../../tests/helpers/api-client';
import { insertFundedCard } from '../../../tests/helpers/fixtures';
import { createTestApp, type TestApp } from '../../../tests/helpers/test-app';
import { cards, combineSources, moneyEffects, rebates } from '../db/schema';
import { checkLedger } from '../ledger/check-ledger';
import { createEffectDrain, MAX_EFFECT_ATTEMPTS } from './drain';
import { enqueueEffects, type MoneyEffect } from './money-effects';

describe('money effects', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterEach(async () => {
    t.calls.clearFaults();
    if (t) expect((await checkLedger(t.database.db)).problems).toEqual([]);
  });
  afterAll(async () => {
    await t?.close();
  });

  async function signUp(): Promise<{ user: ApiUser; userId: string }> {
    const user = await registerUser(t.app);
    return { user, userId: (await user.request('GET', '/api/me')).json().id as string };
  }
  const holdsOf = async (combineId: string) =>
    (await t.database.db.select().from(combineSources).where(eq(combineSources.combineId, combineId)))
      .flatMap((s) => [s.authorizationId, s.bnplTransactionId])
      .filter((id): id is string => Boolean(id));
  const callsFor = (op: string, reference: string) => t.calls.calls.filter((c) => c.op === op && c.reference === reference);
  const effectiveFor = (op: 'processor.capture' | 'processor.release' | 'payouts.send', reference: string) =>
    t.calls.effective(op).filter((c) => c.reference === reference);

  it('a completed combine: one capture per hold, after the commit, each for what the completion charged', async () => {
    const { user } = await signUp();
    const combine = await startCombine(user, '500', '0');
    const half = Math.ceil(combine.funding.suggestedChargeCents.card / 2) + 100;
    expect((await addSource(user, combine.id, { chargeCents: half })).statusCode).toBe(201);
    expect((await addSource(user, combine.id, { chargeCents: half, provider: 'mastercard', cardNumber: '5555555555554444' })).statusCode).toBe(201);
    const key = randomUUID();
    const choices = { useBoost: false, creationFeeSourceIdx: -1, cardType: 'general' };
    const quote = (await user.request('POST', `/api/combines/${combine.id}/quote`, choices)).json();
    const body = { ...choices, expected: { cardAmountCents: quote.cardAmountCents, totalChargedCents: quote.totalChargedCents, productFeeCents: quote.productFeeCents } };
    const complete = () => user.request('POST', `/api/combines/${combine.id}/complete`, body, { 'idempotency-key': key });
    const done = await complete();
    expect(done.statusCode, done.body).toBe(201);
    await t.app.effects.drain();
    const holds = await holdsOf(combine.id);
    expect(holds).toHaveLength(2);
    for (const hold of holds) expect(effectiveFor('processor.capture', `capture:${hold}`)).toEqual([expect.objectContaining({ amountCents: half })]);

    // The same request again: its first answer, and not one more call of any kind but the card's
    // issue, which the processor answers as a duplicate of the first.
    const before = t.calls.calls.length;
    const replay = await complete();
    expect(replay.statusCode).toBe(201);
    expect(replay.json()).toEqual(done.json());
    await t.app.effects.drain();
    expect(t.calls.calls.slice(before).filter((c) => c.op !== 'processor.issueCard')).toEqual([]);
    for (const hold of holds) expect(callsFor('processor.capture', `capture:${hold}`)).toHaveLength(1);
  });

  it('a completion whose card source can no longer pay captures nothing and creates no card', async () => {
    const { user, userId } = await signUp();
    const sourceCardId = await insertFundedCard(t.database.db, userId, 20_000);
    const combine = await startCombine(user, '300', '0');
    expect((await addSource(user, combine.id, { chargeCents: 20_000 })).statusCode).toBe(201);
    const internal = await user.request('POST', `/api/combines/${combine.id}/sources`, { type: 'internal', sourceCardId, chargeCents: 15_000 });
    expect(internal.statusCode, internal.body).toBe(201);
    // Between the review and the confirmation, the source card is spent down.
    const spent = await user.request('POST', `/api/cards/${sourceCardId}/purchases`, { merchant: 'Corner Shop', amountCents: 10_000 }, { 'idempotency-key': randomUUID() });
    expect(spent.statusCode, spent.body).toBe(201);
    const done = await completeWithQuote(user, combine.id);
    expect(done.statusCode, done.body).toBe(409);
    expect(done.json().error.code).toBe('source_unavailable');
    await t.app.effects.drain();
    for (const hold of await holdsOf(combine.id)) expect(callsFor('processor.capture', `capture:${hold}`)).toEqual([]);
    expect(await t.database.db.select().from(cards).where(eq(cards.combineId, combine.id))).toEqual([]);
  });

  it('a deleted draft voids every hold it made, once', async () => {
    const { user } = await signUp();
    const combine = await startCombine(user, '200', '0');
    expect((await addSource(user, combine.id, { chargeCents: 10_000 })).statusCode).toBe(201);
    expect((await addSource(user, combine.id, { chargeCents: 12_000 })).statusCode).toBe(201);
    const holds = await holdsOf(combine.id);
    const removed = await user.request('DELETE', `/api/combines/${combine.id}`);
    expect(removed.statusCode, removed.body).toBeLessThan(300);
    await t.app.effects.drain();
    for (const hold of holds) expect(effectiveFor('processor.release', `void:${hold}`)).toHaveLength(1);
    for (const hold of holds) expect(callsFor('processor.capture', `capture:${hold}`)).toEqual([]);
  });

  it('a BNPL rebate goes through the payout adapter once, when a payout method exists', async () => {
    const { user } = await signUp();
    const combine = await startCombine(user, '143.85', '0', 'dollars');
    const added = await addSource(user, combine.id, { type: 'bnpl', provider: 'klarna', chargeCents: 15_000 });
    const sourceId = added.json().sources[0].id as string;
    const entry = await user.request('POST', `/api/combines/${combine.id}/sources/${sourceId}/bnpl-card`, { cardNumber: '4242 4242 4242 4242', expiry: '12/30', cvv: '123' });
    expect(entry.statusCode, entry.body).toBe(200);
    expect((await completeWithQuote(user, combine.id)).statusCode).toBe(201);
    const [rebate] = await t.database.db.select().from(rebates).where(eq(rebates.combineId, combine.id));
    await t.app.effects.drain();
    expect(callsFor('payouts.send', `rebate:${rebate!.id}`)).toEqual([]); // pending: nowhere to pay it yet
    // The first payout method pays it: $9.75 (docs/rules.md#fee-examples), once, even if the answer is lost.
    t.calls.inject('payouts.send', 'lose-answer', [1]);
    expect((await user.request('POST', '/api/payout-methods', PAYOUT_DETAILS.ach)).statusCode).toBe(201);
    await t.app.effects.drain();
    expect(callsFor('payouts.send', `rebate:${rebate!.id}`).map((c) => c.outcome)).toEqual(['answer-lost', 'duplicate']);
    expect(effectiveFor('payouts.send', `rebate:${rebate!.id}`)).toEqual([expect.objectContaining({ amountCents: 975 })]);
    const [effect] = await t.database.db.select().from(moneyEffects).where(eq(moneyEffects.reference, `rebate:${rebate!.id}`));
    expect(effect).toMatchObject({ kind: 'rebate_payout', status: 'done', attempts: 2 });
  });

  it('the test guard catches an outside call made inside a transaction', async () => {
    await t.database.db.transaction(async () => {
      await expect(t.app.adapters.payouts.send({ method: 'ach', amountCents: 1, reference: 'inside', destination: null })).rejects.toThrow(/inside a database transaction/);
    });
    expect(t.guard.violations).toHaveLength(1);
    t.guard.violations.length = 0; // expected here; any other would fail close()
  });

  describe('the drain through faults', () => {
    async function payoutEffects(count: number): Promise<string[]> {
      const { userId } = await signUp();
      const effects: MoneyEffect[] = Array.from({ length: count }, () => {
        const transactionId = randomUUID();
        return { kind: 'payout', reference: `cashout:${transactionId}`, userId, payload: { method: 'ach', amountCents: 1_234, transactionId, destination: null } };
      });
      await enqueueEffects(t.database.db, effects);
      return effects.map((e) => e.reference);
    }
    const statusOf = async (references: string[]) =>
      (await t.database.db.select().from(moneyEffects).where(inArray(moneyEffects.reference, references))).map((e) => ({ status: e.status, attempts: e.attempts }));

    it.each([
      ['fail', ['failed', 'done']],
      ['timeout', ['timed-out', 'done']],
      ['lose-answer', ['answer-lost', 'duplicate']],
    ] as const)('%s at the first call: retried, and paid exactly once', async (mode, outcomes) => {
      const [reference] = await payoutEffects(1);
      t.calls.inject('payouts.send', mode, [1]);
      await t.app.effects.drain();
      expect(callsFor('payouts.send', reference!).map((c) => c.outcome)).toEqual(outcomes);
      expect(effectiveFor('payouts.send', reference!)).toHaveLength(1);
      expect(await statusOf([reference!])).toEqual([{ status: 'done', attempts: 2 }]);
    });

    it(`an effect that fails ${MAX_EFFECT_ATTEMPTS} times is dead (left for a person), not retried forever`, async () => {
      const [reference] = await payoutEffects(1);
      t.calls.inject('payouts.send', 'fail', Array.from({ length: MAX_EFFECT_ATTEMPTS }, (_, i) => i + 1));
      await t.app.effects.drain();
      expect(await statusOf([reference!])).toEqual([{ status: 'dead', attempts: MAX_EFFECT_ATTEMPTS }]);
      expect(effectiveFor('payouts.send', reference!)).toEqual([]);
      await t.app.effects.drain();
      expect(callsFor('payouts.send', reference!)).toHaveLength(MAX_EFFECT_ATTEMPTS);
    });

    it('backs off exponentially: a failed effect waits retryBase × 2^(attempts-1) before its next try', async () => {
      const [reference] = await payoutEffects(1);
      const slow = createEffectDrain({ db: t.database.db, adapters: () => t.app.adapters, log: t.app.log, retryBaseMs: 60_000 });
      t.calls.inject('payouts.send', 'fail', [1]);
      const started = Date.now();
      await slow.drain();
      const [row] = await t.database.db.select().from(moneyEffects).where(eq(moneyEffects.reference, reference!));
      expect(row).toMatchObject({ status: 'pending', attempts: 1 });
      const waitMs = row!.nextAttemptAt.getTime() - started;
      expect(waitMs).toBeGreaterThan(55_000);
      expect(waitMs).toBeLessThan(70_000);
      await slow.drain(); // not due yet: no call
      expect(callsFor('payouts.send', reference!)).toHaveLength(1);
      // Due again (moved by hand), it fails once more and then waits twice as long.
      t.calls.inject('payouts.send', 'fail', [1]);
      await t.database.db.update(moneyEffects).set({ nextAttemptAt: new Date(Date.now() - 1_000) }).where(eq(moneyEffects.reference, reference!));
      const again = Date.now();
      await slow.drain();
      const [second] = await t.database.db.select().from(moneyEffects).where(eq(moneyEffects.reference, reference!));
      expect(second!.nextAttemptAt.getTime() - again).toBeGreaterThan(115_000);
      await t.database.db.update(moneyEffects).set({ nextAttemptAt: new Date(Date.now() - 1_000) }).where(eq(moneyEffects.reference, reference!));
      await slow.drain();
      expect(await statusOf([reference!])).toEqual([{ status: 'done', attempts: 3 }]);
    });

    it('three drains at once (three instances) make each payout exactly once', async () => {
      const references = await payoutEffects(30);
      const drains = Array.from({ length: 3 }, () => createEffectDrain({ db: t.database.db, adapters: () => t.app.adapters, log: t.app.log, retryBaseMs: 0 }));
      await Promise.all(drains.map((d) => d.drain()));
      for (const reference of references) expect(callsFor('payouts.send', reference)).toHaveLength(1);
      const rows = await t.database.db.select().from(moneyEffects).where(and(inArray(moneyEffects.reference, references), eq(moneyEffects.status, 'done')));
      expect(rows).toHaveLength(30);
    });
  });
});
