// Decision 170: the card processor is told each issued card's state after the commit that changed
// it, by the reconciler (card-states.ts), once per change, outside any transaction (the test app's
// adapter guard fails a call made inside one), whatever fails and however many instances run it.
import { randomUUID } from 'node:crypto';
import { eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { insertFundedCard, insertUser } from '../../../tests/helpers/fixtures';
import { createCard, PAYOUT_DETAILS, registerUser, TEST_PASSWORD, type ApiUser } from '../../../tests/helpers/api-client';
import { createTestApp, type TestApp } from '../../../tests/helpers/test-app';
import { createTestDatabase } from '../../../tests/helpers/test-db';
import { twoInstancesOnOnePostgres } from '../../../tests/helpers/two-instances';
import { processorStateOf, type ProcessorCardState } from '../../core/card-processor-state';
import { liveCardProcessor, type CardProcessor } from '../adapters/card-processor';
import type { DemoCallLog } from '../adapters/demo-calls';
import type { Db } from '../db/client';
import { CARD_PROCESSOR_STATE_WANTED, cards } from '../db/schema';
import { checkLedger } from '../ledger/check-ledger';
import { rowsOf } from '../ledger/post-journal';
import { scheduledJobs } from '../scheduler';
import { claimCardStatesSql, createCardStateSync } from './card-states';

type StateCall = { seq: number; state: string; outcome: string };

/** The processor's record of one card's state instructions, in order: `card-state:<card>:<n>:<state>`. */
function stateCallsOf(log: DemoCallLog, cardId: string): StateCall[] {
  return log.calls
    .filter((c) => c.op === 'processor.setCardState' && c.reference.startsWith(`card-state:${cardId}:`))
    .map((c) => {
      const [, , seq, state] = c.reference.split(':');
      return { seq: Number(seq), state: state!, outcome: c.outcome };
    });
}

/** What the processor holds for a card: the state of the last instruction it carried out. */
function heldAtProcessor(log: DemoCallLog, cardId: string): string {
  const done = stateCallsOf(log, cardId).filter((c) => c.outcome === 'done' || c.outcome === 'answer-lost');
  return done.at(-1)?.state ?? 'active';
}

async function processorColumns(db: Db, cardId: string) {
  const [row] = await db
    .select({ state: cards.processorState, sent: cards.processorSent, seq: cards.processorSeq, attempts: cards.processorAttempts, retryAt: cards.processorRetryAt })
    .from(cards)
    .where(eq(cards.id, cardId));
  if (!row) throw new Error(`card ${cardId} missing`);
  return row;
}

/** A setCardState that waits at a gate: `reached` once a call is held, `open()` lets it (and every later one) through. */
function gateSetCardState(app: TestApp['app']) {
  const processor = app.adapters.cardProcessor;
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  let reached!: () => void;
  const held = new Promise<void>((resolve) => (reached = resolve));
  app.adapters.cardProcessor = {
    ...processor,
    async setCardState(input) {
      reached();
      await opened;
      return processor.setCardState(input);
    },
  } satisfies CardProcessor;
  return { held, open, restore: () => (app.adapters.cardProcessor = processor) };
}

describe('card states at the processor (decision 170)', () => {
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

  async function issuedCard(user: ApiUser, options: { cardType?: 'general' | 'single-use' } = {}) {
    const created = await createCard(user, '40', options);
    expect(created.statusCode, created.body).toBe(201);
    return (created.json() as { card: { id: string; remainingAmountCents: number } }).card;
  }
  const freeze = async (user: ApiUser, cardId: string, frozen = true) => {
    const res = await user.request('POST', `/api/cards/${cardId}/${frozen ? 'freeze' : 'unfreeze'}`);
    expect(res.statusCode, res.body).toBe(200);
  };
  /** Runs the job as the scheduler does, twice and then twice at once: never a second call for one change. */
  const syncRepeatedly = async () => {
    await t.app.cardStates.sync();
    await t.app.cardStates.sync();
    await Promise.all([t.app.cardStates.sync(), t.app.cardStates.sync()]);
  };

  it('a newly issued card causes no call: the processor made it active, as its row starts', async () => {
    const user = await registerUser(t.app);
    const card = await issuedCard(user);
    await syncRepeatedly();
    expect(stateCallsOf(t.calls, card.id)).toEqual([]);
    expect(await processorColumns(t.database.db, card.id)).toMatchObject({ state: 'active', sent: null, seq: 0 });
  });

  it('freeze, unfreeze, freeze: the processor is told frozen, active, frozen, each once, each with a reference of its own', async () => {
    const user = await registerUser(t.app);
    const card = await issuedCard(user);

    await freeze(user, card.id);
    await syncRepeatedly();
    expect(stateCallsOf(t.calls, card.id)).toEqual([{ seq: 1, state: 'frozen', outcome: 'done' }]);
    expect(await processorColumns(t.database.db, card.id)).toMatchObject({ state: 'frozen', sent: null, seq: 1, attempts: 0, retryAt: null });

    await freeze(user, card.id, false);
    await syncRepeatedly();
    await freeze(user, card.id);
    await syncRepeatedly();
    // Freezing a frozen card changes nothing, and tells nothing.
    await freeze(user, card.id);
    await syncRepeatedly();
    expect(stateCallsOf(t.calls, card.id)).toEqual([
      { seq: 1, state: 'frozen', outcome: 'done' },
      { seq: 2, state: 'active', outcome: 'done' },
      { seq: 3, state: 'frozen', outcome: 'done' },
    ]);
    expect(await processorColumns(t.database.db, card.id)).toMatchObject({ state: 'frozen', sent: null, seq: 3 });
  });

  it('a freeze reaches the processor without waiting for the scheduler: the route kicks the job after its commit', async () => {
    const user = await registerUser(t.app);
    const card = await issuedCard(user);
    await freeze(user, card.id);
    for (let i = 0; i < 200 && stateCallsOf(t.calls, card.id).length === 0; i += 1) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(stateCallsOf(t.calls, card.id)).toEqual([{ seq: 1, state: 'frozen', outcome: 'done' }]);
  });

  it('a card cashed out to zero is closed at the processor, once; the cash-out itself is unchanged', async () => {
    const user = await registerUser(t.app);
    expect((await user.request('POST', '/api/payout-methods', PAYOUT_DETAILS.ach)).statusCode).toBe(201);
    const card = await issuedCard(user);
    const cashedOut = await user.request('POST', '/api/cashouts', { cardId: card.id, amountCents: card.remainingAmountCents, payoutMethod: 'ach' }, { 'idempotency-key': randomUUID() });
    expect(cashedOut.statusCode, cashedOut.body).toBe(201);
    expect((cashedOut.json() as { card: { status: string } }).card.status).toBe('cashed_out');
    await syncRepeatedly();
    expect(stateCallsOf(t.calls, card.id)).toEqual([{ seq: 1, state: 'closed', outcome: 'done' }]);
    expect(await processorColumns(t.database.db, card.id)).toMatchObject({ state: 'closed', sent: null });
  });

  it('a single-use card a purchase empties is closed at the processor', async () => {
    const user = await registerUser(t.app);
    const card = await issuedCard(user, { cardType: 'single-use' });
    const bought = await user.request('POST', `/api/cards/${card.id}/purchases`, { merchant: 'Shop', amountCents: card.remainingAmountCents }, { 'idempotency-key': randomUUID() });
    expect(bought.statusCode, bought.body).toBe(201);
    await syncRepeatedly();
    expect(stateCallsOf(t.calls, card.id)).toEqual([{ seq: 1, state: 'closed', outcome: 'done' }]);
  });

  it('an expired card (the expiry job) is closed at the processor, once, even frozen', async () => {
    const user = await registerUser(t.app);
    const [expiring, frozenExpiring] = [await issuedCard(user), await issuedCard(user)];
    await freeze(user, frozenExpiring.id);
    await syncRepeatedly();
    await t.database.db.update(cards).set({ validUntil: new Date(Date.now() - 60_000) }).where(inArray(cards.id, [expiring.id, frozenExpiring.id]));
    const expireJob = scheduledJobs.find((job) => job.name === 'expire-cards')!;
    await expireJob.run(t.app);
    await expireJob.run(t.app);
    await syncRepeatedly();
    expect(stateCallsOf(t.calls, expiring.id)).toEqual([{ seq: 1, state: 'closed', outcome: 'done' }]);
    expect(stateCallsOf(t.calls, frozenExpiring.id)).toEqual([
      { seq: 1, state: 'frozen', outcome: 'done' },
      { seq: 2, state: 'closed', outcome: 'done' },
    ]);
  });

  it('closing the account closes its cards at the processor, once', async () => {
    const user = await registerUser(t.app);
    const card = await issuedCard(user);
    // Spent to $0.00: still active, so the closing is what closes it.
    const spent = await user.request('POST', `/api/cards/${card.id}/purchases`, { merchant: 'Shop', amountCents: card.remainingAmountCents }, { 'idempotency-key': randomUUID() });
    expect(spent.statusCode, spent.body).toBe(201);
    await syncRepeatedly();
    expect(stateCallsOf(t.calls, card.id)).toEqual([]);
    expect((await user.request('POST', '/api/auth/reauthenticate', { password: TEST_PASSWORD })).statusCode).toBe(204);
    const closed = await user.request('POST', '/api/me/close-account');
    expect(closed.statusCode, closed.body).toBe(204);
    await syncRepeatedly();
    expect(stateCallsOf(t.calls, card.id)).toEqual([{ seq: 1, state: 'closed', outcome: 'done' }]);
  });

  it('a failed or timed-out call is retried with the same reference until the processor confirms it', async () => {
    const user = await registerUser(t.app);
    const card = await issuedCard(user);
    t.calls.inject('processor.setCardState', 'timeout', [1]);
    t.calls.inject('processor.setCardState', 'fail', 'all');
    await freeze(user, card.id);
    await t.app.cardStates.sync();
    await t.app.cardStates.sync();
    const failing = await processorColumns(t.database.db, card.id);
    expect(failing).toMatchObject({ state: 'active', sent: 'frozen', seq: 1 });
    expect(failing.attempts).toBeGreaterThanOrEqual(2);
    t.calls.clearFaults();
    await syncRepeatedly();
    const calls = stateCallsOf(t.calls, card.id);
    expect(calls[0]).toEqual({ seq: 1, state: 'frozen', outcome: 'timed-out' });
    expect(calls.slice(1, -1).map((c) => c.outcome)).toEqual(calls.slice(1, -1).map(() => 'failed'));
    expect(calls.at(-1)).toEqual({ seq: 1, state: 'frozen', outcome: 'done' });
    expect(calls.every((c) => c.seq === 1 && c.state === 'frozen')).toBe(true);
    expect(await processorColumns(t.database.db, card.id)).toMatchObject({ state: 'frozen', sent: null, seq: 1, attempts: 0, retryAt: null });
  });

  it('an answer lost, then the card back as it was: the processor, which did freeze it, is told active again', async () => {
    const user = await registerUser(t.app);
    const card = await issuedCard(user);
    t.calls.inject('processor.setCardState', 'lose-answer', [1]);
    await freeze(user, card.id);
    await t.app.cardStates.sync();
    expect(heldAtProcessor(t.calls, card.id)).toBe('frozen');
    // Unfrozen before the freeze was confirmed: the row wants what we last knew the processor had.
    await freeze(user, card.id, false);
    await syncRepeatedly();
    const calls = stateCallsOf(t.calls, card.id);
    expect(calls[0]).toEqual({ seq: 1, state: 'frozen', outcome: 'answer-lost' });
    // A retry of the freeze before the unfreeze (the job runs at once after a failure here) is the same instruction: a duplicate.
    expect(calls.slice(1, -1)).toEqual(calls.slice(1, -1).map(() => ({ seq: 1, state: 'frozen', outcome: 'duplicate' })));
    expect(calls.at(-1)).toEqual({ seq: 2, state: 'active', outcome: 'done' });
    expect(heldAtProcessor(t.calls, card.id)).toBe('active');
    expect(await processorColumns(t.database.db, card.id)).toMatchObject({ state: 'active', sent: null, seq: 2 });
  });

  it('a card that changes while its call is under way ends in its latest state at the processor', async () => {
    const user = await registerUser(t.app);
    const card = await issuedCard(user);
    const gate = gateSetCardState(t.app);
    try {
      await freeze(user, card.id);
      const syncing = t.app.cardStates.sync();
      await gate.held;
      await freeze(user, card.id, false);
      await freeze(user, card.id);
      await freeze(user, card.id, false);
      gate.open();
      await syncing;
      await syncRepeatedly();
    } finally {
      gate.restore();
    }
    expect(stateCallsOf(t.calls, card.id)).toEqual([
      { seq: 1, state: 'frozen', outcome: 'done' },
      { seq: 2, state: 'active', outcome: 'done' },
    ]);
    expect(await processorColumns(t.database.db, card.id)).toMatchObject({ state: 'active', sent: null, seq: 2 });
  });

  it('a second instance on the same database makes no call for a card whose call is under way (the lease)', async () => {
    const second = await createTestApp({ database: t.database });
    const user = await registerUser(t.app);
    const card = await issuedCard(user);
    const gate = gateSetCardState(t.app);
    try {
      await freeze(user, card.id);
      const syncing = t.app.cardStates.sync();
      await gate.held;
      expect(await second.app.cardStates.sync()).toEqual({ confirmed: 0, failed: 0 });
      gate.open();
      await syncing;
      expect(await second.app.cardStates.sync()).toEqual({ confirmed: 0, failed: 0 });
    } finally {
      gate.restore();
      await second.close();
    }
    expect(stateCallsOf(t.calls, card.id)).toEqual([{ seq: 1, state: 'frozen', outcome: 'done' }]);
    expect(stateCallsOf(second.calls, card.id)).toEqual([]);
  });

  it('the test guard catches a card state told inside a transaction', async () => {
    await t.database.db.transaction(async () => {
      await expect(t.app.adapters.cardProcessor.setCardState({ providerRef: 'demo_card_x', state: 'closed', reference: 'inside' })).rejects.toThrow(/inside a database transaction/);
    });
    expect(t.guard.violations).toEqual(['cardProcessor.setCardState was called inside a database transaction (docs/rules.md#outside-effects)']);
    t.guard.violations.length = 0; // expected here; any other would fail close()
  });

  it('the SQL rule is the core rule, for every status frozen or not; a card no processor issued is never due', async () => {
    const db = t.database.db;
    const owner = await insertUser(db);
    const combos = ['active', 'cashed_out', 'expired', 'closed'].flatMap((status) => [false, true].map((frozen) => ({ status, frozen })));
    const ids = await Promise.all(combos.map((c) => insertFundedCard(db, owner, 100, { ...c, providerRef: null })));
    const wanted = rowsOf<{ id: string; wanted: string }>(await db.execute(sql`select id, ${sql.raw(CARD_PROCESSOR_STATE_WANTED)} as wanted from cards where id in ${ids}`));
    for (const [index, id] of ids.entries()) expect(wanted.find((w) => w.id === id)?.wanted, JSON.stringify(combos[index])).toBe(processorStateOf(combos[index]!));
    await syncRepeatedly();
    for (const id of ids) expect(stateCallsOf(t.calls, id)).toEqual([]);
  });

  it('the claim finds the cards due through the partial index and updates them by primary key, on a table of many cards', async () => {
    // A database of its own: these cards have no ledger accounts.
    const database = await createTestDatabase();
    try {
      const db = database.db;
      const owner = await insertUser(db);
      await db.execute(sql`
        insert into cards (user_id, type, status, frozen, valid_until, exp_month, exp_year, network, last4, number_enc, cvv_enc,
          original_amount_cents, remaining_amount_cents, ledger_account_id, provider_ref, processor_state)
        select ${owner}::uuid, 'general', case when n % 3 = 0 then 'closed' else 'active' end, n % 100 = 0, now() + interval '1 year', 12, 2030, 'visa', '0000', 'x', 'x',
          0, 0, gen_random_uuid(), 'plan_' || n, case when n % 3 = 0 then 'closed' else 'active' end
        from generate_series(1, 5000) n`);
      await db.execute(sql`analyze cards`);
      const planOf = async (statement: SQL) =>
        rowsOf<Record<string, string>>(await db.execute(sql`explain ${statement}`))
          .map((row) => Object.values(row)[0])
          .join('\n');
      const claim = await planOf(claimCardStatesSql());
      expect(claim).toContain('cards_processor_state_due_idx');
      expect(claim).toContain('cards_pkey');
      expect(claim).not.toMatch(/Seq Scan on cards/);
      // The outcome, one card by primary key, is a named statement: named-statement-plans.test.ts plans it.
    } finally {
      await database.drop();
    }
  });

  it('live mode: a refused call changes nothing but the wait, is said once per process, and is retried with a back-off', async () => {
    const db = t.database.db;
    const owner = await insertUser(db);
    const ids = await Promise.all([1, 2, 3].map(() => insertFundedCard(db, owner, 100, { providerRef: `live_${randomUUID()}`, frozen: true })));
    const said: Array<{ level: string; message: string }> = [];
    const log = { warn: (_: unknown, message: string) => said.push({ level: 'warn', message }), error: (_: unknown, message: string) => said.push({ level: 'error', message }), debug: () => {} } as unknown as FastifyBaseLogger;
    const live = createCardStateSync({ db, adapters: () => ({ ...t.app.adapters, cardProcessor: liveCardProcessor }), log, retryBaseMs: 60_000 });
    expect(await live.sync()).toEqual({ confirmed: 0, failed: 3 });
    // Not due again before its back-off: the next runs call nothing.
    expect(await live.sync()).toEqual({ confirmed: 0, failed: 0 });
    expect(said).toEqual([{ level: 'warn', message: expect.stringContaining('cannot be told card states yet') }]);
    for (const id of ids) {
      const row = await processorColumns(db, id);
      expect(row).toMatchObject({ state: 'active', sent: 'frozen', seq: 1, attempts: 1 });
      expect(row.retryAt!.getTime()).toBeGreaterThan(Date.now() + 30_000);
    }
    // Once due again (here: made due), the same instruction is tried again, and still said only once.
    await db.update(cards).set({ processorRetryAt: null }).where(inArray(cards.id, ids));
    expect(await live.sync()).toEqual({ confirmed: 0, failed: 3 });
    expect(said).toHaveLength(1);
    for (const id of ids) expect(await processorColumns(db, id)).toMatchObject({ sent: 'frozen', seq: 1, attempts: 2 });
    // The demo processor then confirms them, as a live one will, once they are due.
    await db.update(cards).set({ processorRetryAt: null }).where(inArray(cards.id, ids));
    await t.app.cardStates.sync();
    for (const id of ids) {
      expect(await processorColumns(db, id)).toMatchObject({ state: 'frozen', sent: null, seq: 1, attempts: 0 });
      expect(stateCallsOf(t.calls, id)).toEqual([{ seq: 1, state: 'frozen', outcome: 'done' }]);
    }
  });
});

describe('card states on two instances at once (decision 170)', () => {
  it('every due card is told once, by one of the instances, however many runs race', async () => {
    const instances = await twoInstancesOnOnePostgres();
    try {
      const db = instances.shared.db;
      const owner = await insertUser(db);
      const states: Array<{ status: string; frozen: boolean }> = [
        { status: 'active', frozen: true },
        { status: 'cashed_out', frozen: false },
        { status: 'expired', frozen: true },
        { status: 'closed', frozen: false },
        { status: 'active', frozen: false },
      ];
      // 50 cards: more than a claim's batch, so the runs take turns over several batches.
      const ids = await Promise.all(Array.from({ length: 50 }, (_, n) => insertFundedCard(db, owner, 100, { ...states[n % states.length]!, providerRef: `demo_card_${randomUUID()}` })));
      await Promise.all([instances.a, instances.b].flatMap(({ app }) => [app.cardStates.sync(), app.cardStates.sync(), app.cardStates.sync()]));
      await Promise.all([instances.a.app.cardStates.sync(), instances.b.app.cardStates.sync()]);

      const calls = [...instances.a.calls.calls, ...instances.b.calls.calls].filter((c) => c.op === 'processor.setCardState');
      const due = ids.filter((_, n) => processorStateOf(states[n % states.length]!) !== 'active');
      expect(calls.map((c) => c.outcome)).toEqual(due.map(() => 'done'));
      expect(new Set(calls.map((c) => c.reference.split(':')[1])).size).toBe(due.length);
      const rows = await db.select({ id: cards.id, status: cards.status, frozen: cards.frozen, state: cards.processorState, sent: cards.processorSent }).from(cards).where(inArray(cards.id, ids));
      for (const row of rows) expect({ state: row.state as ProcessorCardState, sent: row.sent }).toEqual({ state: processorStateOf(row), sent: null });
    } finally {
      await instances.close();
    }
  });
});
