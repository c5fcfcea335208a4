// A money request that reaches a read-only node (a standby, in the seconds of a failover before
// the proxy in front of the cluster moves to the new primary: `npm run test:ha`, decision 065)
// answers 503 "try again" with Retry-After, writes nothing, and the same request with the same
// key succeeds once the database accepts writes again, on the same process.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../helpers/db-snapshot';
import { createCard, PAYOUT_DETAILS, registerUser, type ApiUser } from '../helpers/api-client';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { postgresAdminUrl } from '../helpers/test-db';

async function admin(text: string, values: unknown[] = []): Promise<void> {
  const client = new pg.Client({ connectionString: postgresAdminUrl() });
  await client.connect();
  try {
    await client.query(text, values);
  } finally {
    await client.end();
  }
}

describe('a request that lands on a read-only node', () => {
  let t: TestApp;
  let user: ApiUser;
  let cardId: string;
  let name: string;

  /** New sessions of the test database are read-only (or not again), as on a standby; the app's open ones are cut. */
  async function readOnly(on: boolean) {
    await admin(on ? `alter database "${name}" set default_transaction_read_only = on` : `alter database "${name}" reset default_transaction_read_only`);
    await admin('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [name]);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }

  beforeAll(async () => {
    t = await createTestApp();
    name = new URL(t.database.url).pathname.slice(1);
    user = await registerUser(t.app);
    const created = await createCard(user, '250');
    expect(created.statusCode).toBe(201);
    cardId = (created.json() as { card: { id: string } }).card.id;
    expect((await user.request('POST', '/api/payout-methods', PAYOUT_DETAILS.ach)).statusCode).toBe(201);
  });

  afterAll(async () => {
    await t?.close();
  });

  it('answers 503 with Retry-After, writes nothing, and the retry with the same key succeeds once', async () => {
    const key = randomUUID();
    const cashout = () => user.request('POST', '/api/cashouts', { cardId, amountCents: 1_000, payoutMethod: 'ach' }, { 'idempotency-key': key });
    await readOnly(true);
    const refused = await cashout();
    const purchase = await user.request('POST', `/api/cards/${cardId}/purchases`, { merchant: 'Corner Shop', amountCents: 500 }, { 'idempotency-key': randomUUID() });
    await readOnly(false);
    expect(refused.statusCode).toBe(503);
    expect(refused.json()).toMatchObject({ error: { code: 'service_unavailable' } });
    expect(refused.headers['retry-after']).toBe('1');
    expect(purchase.statusCode).toBe(503);
    const [written] = await queryRows<{ moves: number; keys: number }>(
      t.database.db,
      `select (select count(*)::int from transactions where card_id = '${cardId}' and type in ('cashout', 'purchase')) as moves,
              (select count(*)::int from idempotency_keys where key = '${key}') as keys`,
    );
    expect(written).toEqual({ moves: 0, keys: 0 });

    const retried = await cashout();
    expect(retried.statusCode).toBe(201);
    expect((await cashout()).json()).toEqual(retried.json());
    const [after] = await queryRows<{ n: number }>(t.database.db, `select count(*)::int as n from transactions where card_id = '${cardId}' and type = 'cashout'`);
    expect(after?.n).toBe(1);
  });
});
