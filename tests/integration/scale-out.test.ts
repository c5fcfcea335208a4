// Scale out (docs/scaling.md): two server processes on two ports share one PostgreSQL
// database and nothing else. Proves that sessions, rate limits, idempotency keys and the launch
// promo counter hold across instances: with promo claims and cash-outs fired at both at once,
// the counter never passes 100 and matches the promo cards, no balance goes negative, a key sent
// to both instances does its work once, and the ledger balances.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedger } from '../../src/server/ledger/check-ledger';
import { queryRows } from '../helpers/db-snapshot';
import { registerOver, removeServerBundle, startServer, type HttpUser, type ServerProcess } from '../helpers/server-process';
import { PAYOUT_DETAILS, TEST_PASSWORD, TEST_VISA } from '../helpers/api-client';
import { createTestDatabase, type TestDatabase } from '../helpers/test-db';

const PROMO_USERS = 16;
const PROMO_SPOTS_LEFT = 10; // the counter starts at 90 of 100, so the burst competes for the last 10
const COMPLETE_CHOICES = { useBoost: false, creationFeeSourceIdx: -1, cardType: 'general' } as const;

type Quote = { cardAmountCents: number; totalChargedCents: number; productFeeCents: number; promoClaim: boolean };
type Draft = { user: HttpUser; home: string; combineId: string; quote: Quote };

const expected = (quote: Quote) => ({ cardAmountCents: quote.cardAmountCents, totalChargedCents: quote.totalChargedCents, productFeeCents: quote.productFeeCents });

/** Runs `work` over `items` with at most `limit` in flight. */
async function mapLimit<T, R>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await work(items[index] as T, index);
      }
    }),
  );
  return results;
}

describe('scale out: two server processes, one PostgreSQL', () => {
  let database: TestDatabase;
  let a: ServerProcess;
  let b: ServerProcess;
  const instances = () => [a.url, b.url];

  beforeAll(async () => {
    database = await createTestDatabase({ poolSize: 4 });
    // TRUST_PROXY as behind a load balancer: each test user has its own X-Forwarded-For address.
    const env = { TRUST_PROXY: 'true', DB_POOL_SIZE: '10' };
    [a, b] = await Promise.all([startServer({ databaseUrl: database.url, env }), startServer({ databaseUrl: database.url, env })]);
  }, 90_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await database?.drop();
    removeServerBundle();
  });

  let userCount = 0;
  const newUser = (home: string) => {
    userCount += 1;
    return registerOver(home, `scale-${userCount}-${randomUUID()}@example.com`, TEST_PASSWORD, `198.51.100.${userCount}`);
  };

  it('a session made on one instance works on the other, and a sign-out on one ends it on both (on the other within moments)', async () => {
    const user = await newUser(a.url);
    // Both instances now hold the session in their read cache (decision 017).
    expect((await user.request(a.url, 'GET', '/api/me')).status).toBe(200);
    const onB = await user.request(b.url, 'GET', '/api/me');
    expect(onB.status).toBe(200);
    expect((onB.body as { email: string }).email).toBe(user.email);
    expect((await user.request(b.url, 'POST', '/api/auth/logout')).status).toBe(204);
    expect((await user.request(b.url, 'GET', '/api/me')).status).toBe(401);
    // A learns it from B's NOTIFY: a few milliseconds, allowed up to one second here.
    const started = Date.now();
    let onA = await user.request(a.url, 'GET', '/api/me');
    while (onA.status === 200 && Date.now() - started < 1_000) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      onA = await user.request(a.url, 'GET', '/api/me');
    }
    expect(onA.status).toBe(401);
    console.log(`scale-out: a sign-out on B ended the session on A within ${Date.now() - started} ms`);
  });

  it('rate limits count across instances: the 11th wrong password for one e-mail from one address is refused wherever it lands', async () => {
    const user = await newUser(a.url);
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 12; attempt += 1) {
      const answer = await fetch(`${instances()[attempt % 2]}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.1' },
        body: JSON.stringify({ email: user.email, password: 'Wrong-Password-1' }),
      });
      statuses.push(answer.status);
    }
    // Per instance, each would have allowed 10 (20 in all); shared, the limit is 10.
    expect(statuses).toEqual([...Array<number>(10).fill(401), 429, 429]);
  });

  it('promo claims and cash-outs fired at both instances at once keep every invariant', async () => {
    await database.db.execute(sql`update system_promos set first_100_promo_claimed = ${100 - PROMO_SPOTS_LEFT}`);

    // Setup (bounded concurrency): each user's $1,000 draft, funded and reviewed on its home instance.
    const drafts = await mapLimit(Array.from({ length: PROMO_USERS }, (_, i) => i), 4, async (i): Promise<Draft> => {
      const home = instances()[i % 2]!;
      const user = await newUser(home);
      const created = await user.request(home, 'POST', '/api/combines', { baseInput: '1000', bufferInput: '0', bufferMode: 'percent' });
      expect(created.status).toBe(201);
      const combine = created.body as { id: string; funding: { suggestedChargeCents: { card: number } } };
      const source = await user.request(home, 'POST', `/api/combines/${combine.id}/sources`, {
        type: 'credit',
        provider: 'visa',
        chargeCents: combine.funding.suggestedChargeCents.card,
        cardNumber: TEST_VISA,
        expMonth: 12,
        expYear: new Date().getUTCFullYear() + 2,
        cvv: '123',
      });
      expect(source.status).toBe(201);
      const quote = await user.request(home, 'POST', `/api/combines/${combine.id}/quote`, COMPLETE_CHOICES);
      expect(quote.status).toBe(200);
      expect((quote.body as Quote).promoClaim).toBe(true);
      return { user, home, combineId: combine.id, quote: quote.body as Quote };
    });

    // The burst: every completion at once, the other instance from the one that quoted.
    const burst = await Promise.all(
      drafts.map((draft, i) =>
        draft.user.request(instances()[(i + 1) % 2]!, 'POST', `/api/combines/${draft.combineId}/complete`, { ...COMPLETE_CHOICES, expected: expected(draft.quote) }, { 'idempotency-key': randomUUID() }),
      ),
    );
    const won = burst.filter((r) => r.status === 201);
    const lost = burst.map((r, i) => ({ r, draft: drafts[i]! })).filter(({ r }) => r.status === 409);
    expect(won).toHaveLength(PROMO_SPOTS_LEFT);
    expect(won.every((r) => (r.body as { promoApplied: boolean }).promoApplied)).toBe(true);
    expect(lost).toHaveLength(PROMO_USERS - PROMO_SPOTS_LEFT);
    expect(lost.every(({ r }) => (r.body as { error: { code: string } }).error.code === 'quote_changed')).toBe(true);

    // The users who lost the race review the new figures (no promo) and create their cards.
    // Without the promo the product fee doubles, so the old charge no longer covers $1,000: the
    // 409 says so (canContinue false), and the user re-enters the source at the new suggested charge.
    expect(lost.every(({ r }) => (r.body as { error: { details: { canContinue: boolean } } }).error.details.canContinue === false)).toBe(true);
    for (const { draft } of lost) {
      const current = await draft.user.request(draft.home, 'GET', `/api/combines/${draft.combineId}`);
      const { sources } = current.body as { sources: Array<{ id: string }> };
      const removed = await draft.user.request(draft.home, 'DELETE', `/api/combines/${draft.combineId}/sources/${sources[0]!.id}`);
      expect(removed.status).toBe(200);
      const { funding } = removed.body as { funding: { suggestedChargeCents: { card: number } } };
      const readded = await draft.user.request(draft.home, 'POST', `/api/combines/${draft.combineId}/sources`, {
        type: 'credit',
        provider: 'visa',
        chargeCents: funding.suggestedChargeCents.card,
        cardNumber: TEST_VISA,
        expMonth: 12,
        expYear: new Date().getUTCFullYear() + 2,
        cvv: '123',
      });
      expect(readded.status).toBe(201);
      const quote = await draft.user.request(draft.home, 'POST', `/api/combines/${draft.combineId}/quote`, COMPLETE_CHOICES);
      expect((quote.body as Quote).promoClaim).toBe(false);
      const done = await draft.user.request(b.url, 'POST', `/api/combines/${draft.combineId}/complete`, { ...COMPLETE_CHOICES, expected: expected(quote.body as Quote) }, { 'idempotency-key': randomUUID() });
      expect(done.status).toBe(201);
      expect((done.body as { promoApplied: boolean }).promoApplied).toBe(false);
    }
    const [counter] = await queryRows<{ claimed: number; limit_count: number }>(database.db, 'select first_100_promo_claimed as claimed, limit_count from system_promos');
    const [promoCards] = await queryRows<{ n: number }>(database.db, 'select count(*)::int as n from cards where promo_applied');
    const [promoUsers] = await queryRows<{ n: number }>(database.db, 'select count(*)::int as n from users where promo_50off_first_year');
    expect(counter).toEqual({ claimed: 100, limit_count: 100 });
    expect(promoCards?.n).toBe(PROMO_SPOTS_LEFT);
    expect(promoUsers?.n).toBe(PROMO_SPOTS_LEFT);
    for (const url of instances()) expect((await fetch(`${url}/api/promo`).then((r) => r.json())) as unknown).toMatchObject({ claimedCount: 100, remainingCount: 0 });

    // Cash-outs: each user fires four of 30% of the balance at once, split across both instances.
    const cards = await mapLimit(drafts, 4, async (draft) => {
      expect((await draft.user.request(draft.home, 'POST', '/api/payout-methods', PAYOUT_DETAILS.ach)).status).toBe(201);
      const list = await draft.user.request(draft.home, 'GET', '/api/cards');
      const [card] = (list.body as { cards: Array<{ id: string; remainingAmountCents: number }> }).cards;
      return { draft, cardId: card!.id, startCents: card!.remainingAmountCents };
    });
    const cashouts = await Promise.all(
      cards.flatMap(({ draft, cardId, startCents }) =>
        Array.from({ length: 4 }, (_, k) =>
          draft.user
            .request(instances()[k % 2]!, 'POST', '/api/cashouts', { cardId, amountCents: Math.floor(startCents * 0.3), payoutMethod: 'ach' }, { 'idempotency-key': randomUUID() })
            .then((answer) => ({ cardId, startCents, answer })),
        ),
      ),
    );
    expect(cashouts.filter((c) => c.answer.status >= 500)).toEqual([]);
    for (const { cardId, startCents } of cards) {
      const mine = cashouts.filter((c) => c.cardId === cardId);
      const accepted = mine.filter((c) => c.answer.status === 201);
      expect(accepted).toHaveLength(3); // the fourth would overdraw the card
      expect(mine.filter((c) => c.answer.status === 400)).toHaveLength(1);
      const [row] = await queryRows<{ remaining: number }>(database.db, `select remaining_amount_cents::int as remaining from cards where id = '${cardId}'`);
      expect(row?.remaining).toBe(startCents - 3 * Math.floor(startCents * 0.3));
    }
    const [negative] = await queryRows<{ n: number }>(database.db, 'select count(*)::int as n from cards where remaining_amount_cents < 0');
    expect(negative?.n).toBe(0);
    // The figures docs/proof.md records.
    console.info(
      `scale-out: ${PROMO_USERS} promo claims split over 2 instances for ${PROMO_SPOTS_LEFT} spots: ${won.length} won, ${lost.length} refused quote_changed, counter ${counter?.claimed}/${counter?.limit_count}; ` +
        `${cashouts.length} concurrent cash-outs on ${cards.length} cards: ${cashouts.filter((c) => c.answer.status === 201).length} accepted, ${cashouts.filter((c) => c.answer.status === 400).length} refused (would overdraw), 0 negative balances`,
    );
  });

  it('one Idempotency-Key sent to both instances at once does the work once (card creation and cash-out)', async () => {
    const user = await newUser(a.url);
    const created = await user.request(a.url, 'POST', '/api/combines', { baseInput: '250', bufferInput: '0', bufferMode: 'percent' });
    const combine = created.body as { id: string; funding: { suggestedChargeCents: { card: number } } };
    await user.request(b.url, 'POST', `/api/combines/${combine.id}/sources`, {
      type: 'credit',
      provider: 'visa',
      chargeCents: combine.funding.suggestedChargeCents.card,
      cardNumber: TEST_VISA,
      expMonth: 12,
      expYear: new Date().getUTCFullYear() + 2,
      cvv: '123',
    });
    const quote = (await user.request(a.url, 'POST', `/api/combines/${combine.id}/quote`, COMPLETE_CHOICES)).body as Quote;
    const key = randomUUID();
    const completions = await Promise.all(
      Array.from({ length: 6 }, (_, i) => user.request(instances()[i % 2]!, 'POST', `/api/combines/${combine.id}/complete`, { ...COMPLETE_CHOICES, expected: expected(quote) }, { 'idempotency-key': key })),
    );
    expect(completions.map((c) => c.status)).toEqual(Array<number>(6).fill(201));
    const cardIds = new Set(completions.map((c) => (c.body as { card: { id: string } }).card.id));
    expect(cardIds.size).toBe(1);
    const [cardsOfCombine] = await queryRows<{ n: number }>(database.db, `select count(*)::int as n from cards where combine_id = '${combine.id}'`);
    const [journalsOfCombine] = await queryRows<{ n: number }>(database.db, `select count(*)::int as n from journals where reference_id = '${combine.id}'`);
    expect(cardsOfCombine?.n).toBe(1);
    expect(journalsOfCombine?.n).toBe(1);

    const cardId = [...cardIds][0]!;
    expect((await user.request(a.url, 'POST', '/api/payout-methods', PAYOUT_DETAILS.ach)).status).toBe(201);
    const cashoutKey = randomUUID();
    const cashouts = await Promise.all(
      Array.from({ length: 6 }, (_, i) => user.request(instances()[i % 2]!, 'POST', '/api/cashouts', { cardId, amountCents: 1_000, payoutMethod: 'ach' }, { 'idempotency-key': cashoutKey })),
    );
    expect(cashouts.map((c) => c.status)).toEqual(Array<number>(6).fill(201));
    expect(new Set(cashouts.map((c) => (c.body as { cashout: { id: string } }).cashout.id)).size).toBe(1);
    const [cashoutRows] = await queryRows<{ n: number }>(database.db, `select count(*)::int as n from transactions where card_id = '${cardId}' and type = 'cashout'`);
    expect(cashoutRows?.n).toBe(1);
  });

  it('the ledger balances after all of it', async () => {
    const result = await checkLedger(database.db);
    expect(result.problems).toEqual([]);
    console.info(`scale-out ledger: ${result.journals} journals, ${result.cards} cards, ${result.problems.length} problems`);
  });
});
