// The read cache (decision 017) seen through the API: cached sessions and card lists never outlive
// the change that ends them, on this instance at once and, on PostgreSQL, on another instance
// sharing the database within moments; and while an instance cannot hear the others, it does not
// cache at all.
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asUser, createCard, registerUser, sessionCookieFrom, TEST_PASSWORD, type ApiUser } from '../../../../tests/helpers/api-client';
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app';
import { eventually, twoInstancesOnOnePostgres, type TwoInstances } from '../../../../tests/helpers/two-instances';
import { type TestDatabase } from '../../../../tests/helpers/test-db';
import { LISTENER_APPLICATION_NAME } from '../../db/change-bus';
import type { Database } from '../../db/client';
import { cards } from '../../db/schema';
import { changed } from '../../lib/transaction';
import { expireCards } from './expire-cards';

const DAY_MS = 24 * 60 * 60 * 1000;

type ListedCard = { id: string; frozen: boolean; status: string; remainingAmountCents: number };
async function listCards(user: ApiUser): Promise<ListedCard[]> {
  const res = await user.request('GET', '/api/cards');
  expect(res.statusCode, res.body).toBe(200);
  return res.json().cards as ListedCard[];
}

async function signInAgain(t: TestApp, user: ApiUser): Promise<ApiUser> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    remoteAddress: '10.9.9.9',
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ email: user.email, password: TEST_PASSWORD }),
  });
  expect(res.statusCode, res.body).toBe(200);
  return asUser(t.app, user.email, sessionCookieFrom(res));
}

describe('read cache on one instance', () => {
  let t: TestApp;
  let clock: Date;

  beforeAll(async () => {
    clock = new Date();
    t = await createTestApp({ now: () => clock });
    await eventually(async () => expect(t.database.readCache.isEnabled).toBe(true), 5_000);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("a user's card list shows their own changes on the very next request", async () => {
    const user = await registerUser(t.app);
    const created = await createCard(user, '100');
    expect(created.statusCode, created.body).toBe(201);
    const cardId = created.json().card.id as string;
    expect(await listCards(user)).toMatchObject([{ id: cardId, frozen: false }]);
    expect(await listCards(user)).toMatchObject([{ id: cardId, frozen: false }]);

    expect((await user.request('POST', `/api/cards/${cardId}/freeze`)).statusCode).toBe(200);
    expect(await listCards(user)).toMatchObject([{ id: cardId, frozen: true }]);
    expect((await user.request('GET', '/api/cards?status=frozen')).json().cards).toHaveLength(1);

    expect((await user.request('POST', `/api/cards/${cardId}/unfreeze`)).statusCode).toBe(200);
    const before = (await listCards(user))[0]!.remainingAmountCents;
    const purchase = await user.request('POST', `/api/cards/${cardId}/purchases`, { merchant: 'Corner Shop', amountCents: 1_234 }, { 'idempotency-key': randomUUID() });
    expect(purchase.statusCode, purchase.body).toBe(201);
    expect((await listCards(user))[0]!.remainingAmountCents).toBe(before - 1_234);
    expect((await user.request('GET', '/api/cards?status=frozen')).json().cards).toHaveLength(0);
  });

  it('a signed-out cookie is refused at once, even though its session was just served from the cache', async () => {
    const user = await registerUser(t.app);
    await listCards(user);
    await listCards(user);
    expect((await user.request('POST', '/api/auth/logout')).statusCode).toBe(204);
    expect((await user.request('GET', '/api/cards')).statusCode).toBe(401);
  });

  it("a password change ends the user's other cached sessions at once, and keeps the one that changed it", async () => {
    const user = await registerUser(t.app);
    const otherDevice = await signInAgain(t, user);
    await listCards(otherDevice);
    const res = await user.request('PUT', '/api/me/password', { currentPassword: TEST_PASSWORD, newPassword: 'Another-Sturdy-Pass-2027' });
    expect(res.statusCode, res.body).toBe(204);
    expect((await otherDevice.request('GET', '/api/cards')).statusCode).toBe(401);
    expect((await user.request('GET', '/api/cards')).statusCode).toBe(200);
  });

  it('a change recorded in a transaction the cache cannot follow is refused, never dropped', async () => {
    await t.database.db.transaction(async (tx) => {
      expect(() => changed(tx, { kind: 'cards-of', userId: randomUUID() })).toThrow(/inTransaction/);
    });
  });

  it('the scheduled expiry shows in a cached card list at once', async () => {
    const user = await registerUser(t.app);
    const created = await createCard(user, '50');
    expect(created.statusCode, created.body).toBe(201);
    expect(await listCards(user)).toMatchObject([{ status: 'active' }]);
    const cardId = created.json().card.id as string;
    // Past its validity (written straight to the database: no request of the user's, so nothing
    // published), then the job's run, which publishes what it changed.
    await t.database.db.update(cards).set({ validUntil: new Date(clock.getTime() - DAY_MS) }).where(eq(cards.id, cardId));
    await expireCards(t.app.db, clock);
    expect(await listCards(user)).toMatchObject([{ id: cardId, status: 'expired' }]);
  });

  it('a cached card list stops offering to spend a card the moment its validity ends, before any job runs', async () => {
    const user = await registerUser(t.app);
    const created = await createCard(user, '50');
    expect(created.statusCode, created.body).toBe(201);
    const cardId = created.json().card.id as string;
    // A card whose validity ends in a minute (well inside the session's life), set before the list
    // is first read and cached.
    const validUntil = new Date(clock.getTime() + 60_000);
    await t.database.db.update(cards).set({ validUntil }).where(eq(cards.id, cardId));
    const listed = async () => (await listCards(user)) as Array<ListedCard & { can: { spend: boolean; cashOut: boolean } }>;
    expect(await listed()).toMatchObject([{ id: cardId, can: { spend: true } }]);
    expect(await listed()).toMatchObject([{ id: cardId, can: { spend: true } }]);
    // The same cached rows (nothing changed in the database since); only the clock passes validUntil.
    const before = clock;
    try {
      clock = new Date(validUntil.getTime() + 1);
      expect(await listed()).toMatchObject([{ id: cardId, status: 'active', can: { spend: false, cashOut: true } }]);
      clock = before;
      expect(await listed()).toMatchObject([{ id: cardId, can: { spend: true } }]);
    } finally {
      clock = before;
    }
  });
});

describe('read cache across instances', () => {
  let instances: TwoInstances;
  let shared: TestDatabase;
  let second: Database;
  let a: TestApp;
  let b: TestApp;
  /** The same browser session seen through instance A and through instance B. */
  const onB = (user: ApiUser) => asUser(b.app, user.email, user.cookie);
  const admin = () => new pg.Client({ connectionString: shared.url });

  beforeAll(async () => {
    instances = await twoInstancesOnOnePostgres();
    ({ shared, second, a, b } = instances);
  });
  afterAll(async () => {
    await instances?.close();
  });

  it("a change made on one instance reaches the other's cached card list within moments", async () => {
    const user = await registerUser(a.app);
    const created = await createCard(user, '100');
    expect(created.statusCode, created.body).toBe(201);
    const cardId = created.json().card.id as string;
    await eventually(async () => expect(await listCards(onB(user))).toMatchObject([{ id: cardId, frozen: false }]), 1_000);
    await listCards(onB(user));

    expect((await user.request('POST', `/api/cards/${cardId}/freeze`)).statusCode).toBe(200);
    const tookMs = await eventually(async () => expect(await listCards(onB(user))).toMatchObject([{ id: cardId, frozen: true }]), 1_000);
    expect(tookMs).toBeLessThan(1_000);
  });

  it('a sign-out on one instance ends the session on the other within moments', async () => {
    const user = await registerUser(a.app);
    await listCards(onB(user));
    await listCards(onB(user));
    expect((await user.request('POST', '/api/auth/logout')).statusCode).toBe(204);
    await eventually(async () => expect((await onB(user).request('GET', '/api/cards')).statusCode).toBe(401), 1_000);
  });

  it('while an instance cannot hear the others it caches nothing, and it listens again by itself', async () => {
    const user = await registerUser(a.app);
    const created = await createCard(user, '100');
    const cardId = created.json().card.id as string;
    await listCards(onB(user));

    const client = admin();
    await client.connect();
    try {
      const killed = await client.query(
        'select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and application_name = $1 and pid <> pg_backend_pid()',
        [LISTENER_APPLICATION_NAME],
      );
      expect(killed.rowCount).toBe(2);
      await eventually(async () => expect(second.readCache.isEnabled).toBe(false), 1_000);
      // A change no instance publishes (made straight in the database) is seen at once: B reads
      // the database on every request while it is deaf.
      await second.db.execute(sql`update cards set frozen = true where id = ${cardId}`);
      expect(await listCards(onB(user))).toMatchObject([{ id: cardId, frozen: true }]);
      await second.db.execute(sql`update cards set frozen = false where id = ${cardId}`);
      expect(await listCards(onB(user))).toMatchObject([{ id: cardId, frozen: false }]);
    } finally {
      await client.end();
    }
    await eventually(async () => expect([shared.readCache.isEnabled, second.readCache.isEnabled]).toEqual([true, true]), 5_000);
    expect((await user.request('POST', `/api/cards/${cardId}/freeze`)).statusCode).toBe(200);
    await eventually(async () => expect(await listCards(onB(user))).toMatchObject([{ id: cardId, frozen: true }]), 1_000);
  });
});
