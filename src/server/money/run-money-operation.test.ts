// The one pipeline of money operations, with a tiny operation of its own against PostgreSQL:
// spending one of a user's boosts. Its reader claims the Idempotency-Key in the statement that
// locks the user (claimClause), its writer spends the boost, writes its effect and stores the
// answer in one statement (storeClause), as the cash-out does. The outbox is a recorder: what the
// pipeline hands it after the commit is what would be carried out.
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertUser } from '../../../tests/helpers/fixtures';
import { createTestDatabase, type TestDatabase } from '../../../tests/helpers/test-db';
import type { Tx } from '../db/client';
import { namedSqlStatement, namedStatement, placeholderValues, rowsWritten } from '../db/named-statement';
import { idempotencyKeys, moneyEffects, users } from '../db/schema';
import type { EffectDrain } from '../effects/drain';
import { effectsClause, effectsValues, type MoneyEffect } from '../effects/money-effects';
import { rowsOf } from '../ledger/post-journal';
import { conflict } from '../lib/errors';
import { claimClause, claimedColumn, IDEMPOTENCY_RETENTION_MS, requestFingerprint, storeClause, storedColumn } from '../lib/idempotency';
import { acceptedWriteSet } from '../../core/write-set';
import { runMoneyOperation, type MoneyOperation, type WriteContext } from './run-money-operation';

const readStatement = namedStatement('test_spend_boost_read', (db) =>
  db
    .with(claimClause(db))
    .select({ boosts: users.boostsAvailable, claimed: claimedColumn() })
    .from(users)
    .where(eq(users.id, sql.placeholder('userId')))
    .for('update'),
);

const writeStatement = namedSqlStatement(
  'test_spend_boost_write',
  () => sql`
    with spent as (
      update users set boosts_available = boosts_available - 1
      where id = ${sql.placeholder('userId')}::uuid and boosts_available >= 1
      returning boosts_available
    ),
    ${effectsClause(sql`exists (select 1 from spent)`)},
    ${storeClause()}
    select (select boosts_available from spent) as left_after, ${rowsWritten('money_effect_rows')} as effect_count, ${storedColumn()}`,
);

type Write = { userId: string; leftAfter: number };

function spendBoost(userId: string, reference: string): MoneyOperation<{ boosts: number }, Write> {
  return {
    async read({ tx, claim }) {
      const [row] = await readStatement(tx, { userId, ...claim });
      return row!.claimed === 1 ? { claimed: true, facts: { boosts: row!.boosts } } : { claimed: false };
    },
    decide({ boosts }) {
      if (boosts < 1) return { refusal: conflict('No boost left to spend.') };
      // One capture stands for any outside effect (the outbox here only records it); the core's write
      // set says the same, so the pipeline's check that the outbox gets one row per effect holds.
      const effect: MoneyEffect = { kind: 'capture', reference, userId, payload: { authorizationId: reference, amountCents: 100, combineId: reference } };
      const writeSet = acceptedWriteSet('completion', { effects: [{ kind: 'capture', amountCents: 100, authorizationId: reference }] });
      return { write: { userId, leftAfter: boosts - 1 }, answer: { status: 201, body: { left: boosts - 1 } }, effects: [effect], writeSet };
    },
    async write(tx: Tx, write: Write, context: WriteContext) {
      const values = placeholderValues({ own: { userId: write.userId }, effects: effectsValues([...context.effects], context.effectLeaseSeconds), answer: context.store });
      const [row] = rowsOf<{ left_after: number | null; effect_count: number; stored: number }>(await writeStatement(tx, values));
      if (row?.left_after !== write.leftAfter || Number(row.effect_count) !== context.effects.length || Number(row.stored) !== 1) {
        throw new Error(`spendBoost: wrote ${JSON.stringify(row)}`);
      }
      return 'written';
    },
  };
}

describe('runMoneyOperation', () => {
  let database: TestDatabase;
  /** The effects handed over after each commit, by reference. */
  const carried: string[] = [];
  const outbox: EffectDrain = {
    leaseSeconds: 60,
    carryOut: (effects) => void carried.push(...effects.map((effect) => effect.reference)),
    drain: async () => 0,
    kick: () => {},
    idle: async () => {},
  };

  beforeAll(async () => {
    database = await createTestDatabase({ poolSize: 25 });
  });
  afterAll(async () => {
    await database?.drop();
  });

  /** A user with `boosts`, and a way to spend one under a key (`body` tells one request from another). */
  async function setUp(boosts: number) {
    const userId = await insertUser(database.db, { boostsAvailable: boosts });
    const reference = `test:${randomUUID()}`;
    const operation = spendBoost(userId, reference);
    const spend = (key: string, body: unknown = { boosts: 1 }, how = operation) =>
      runMoneyOperation(
        { db: database.db, effects: outbox },
        { userId, key, fingerprint: requestFingerprint({ method: 'POST', route: '/test/boosts', body }), now: new Date() },
        how,
      );
    const boostsLeft = async () => (await database.db.select().from(users).where(eq(users.id, userId)))[0]!.boostsAvailable;
    const effectRows = async () => (await database.db.select().from(moneyEffects).where(eq(moneyEffects.reference, reference))).length;
    const sent = () => carried.filter((each) => each === reference).length;
    const keyRows = (key: string) => database.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key));
    return { userId, operation, spend, boostsLeft, effectRows, sent, keyRows };
  }

  it('does the work once and hands its effects over after the commit; a retry gets the stored answer and nothing more', async () => {
    const { spend, boostsLeft, effectRows, sent, keyRows } = await setUp(3);
    const key = randomUUID();
    const first = await spend(key);
    expect(first).toEqual({ status: 201, body: { left: 2 }, replayed: false });
    expect(sent()).toBe(1);
    const retry = await spend(key);
    expect(retry).toEqual({ status: 201, body: { left: 2 }, replayed: true });
    expect(await boostsLeft()).toBe(2);
    expect(await effectRows()).toBe(1);
    expect(sent()).toBe(1);
    expect((await keyRows(key))[0]).toMatchObject({ responseStatus: 201, responseBody: { left: 2 } });
  });

  it('the key sent with another request: 422, and nothing is done', async () => {
    const { spend, boostsLeft, sent } = await setUp(3);
    const key = randomUUID();
    await spend(key, { boosts: 1 });
    await expect(spend(key, { boosts: 2 })).rejects.toMatchObject({ statusCode: 422, code: 'idempotency_mismatch' });
    expect(await boostsLeft()).toBe(2);
    expect(sent()).toBe(1);
  });

  it('a refusal writes nothing, hands nothing over, and releases the key: the retry is decided again', async () => {
    const { userId, spend, boostsLeft, effectRows, sent, keyRows } = await setUp(0);
    const key = randomUUID();
    await expect(spend(key)).rejects.toMatchObject({ statusCode: 409, code: 'conflict', message: 'No boost left to spend.' });
    expect(await keyRows(key)).toEqual([]);
    expect(await effectRows()).toBe(0);
    expect(sent()).toBe(0);
    await database.db.update(users).set({ boostsAvailable: 1 }).where(eq(users.id, userId));
    expect(await spend(key)).toEqual({ status: 201, body: { left: 0 }, replayed: false });
    expect(await boostsLeft()).toBe(0);
    expect(sent()).toBe(1);
  });

  it('20 requests with one key at once: one write, one effect, and every answer is its answer', async () => {
    const { spend, boostsLeft, effectRows, sent } = await setUp(3);
    const key = randomUUID();
    const answers = await Promise.all(Array.from({ length: 20 }, () => spend(key)));
    expect(answers.filter((answer) => !answer.replayed)).toHaveLength(1);
    expect(answers.every((answer) => answer.status === 201 && (answer.body as { left: number }).left === 2)).toBe(true);
    expect(await boostsLeft()).toBe(2);
    expect(await effectRows()).toBe(1);
    expect(sent()).toBe(1);
  });

  it('a key older than 24 hours is forgotten: the request is new and done again', async () => {
    const { userId, spend, boostsLeft, keyRows } = await setUp(3);
    const key = randomUUID();
    await spend(key);
    const dayAndMore = new Date(Date.now() - IDEMPOTENCY_RETENTION_MS - 1_000);
    await database.db.update(idempotencyKeys).set({ createdAt: dayAndMore }).where(eq(idempotencyKeys.key, key));
    // A new request, so a new effect (a reference is one effect, whatever writes it).
    const again = `test:${randomUUID()}`;
    expect(await spend(key, undefined, spendBoost(userId, again))).toEqual({ status: 201, body: { left: 1 }, replayed: false });
    expect(await boostsLeft()).toBe(1);
    expect(carried).toContain(again);
    expect(await keyRows(key)).toHaveLength(1);
  });

  it('a writer that fails rolls the claim back with its writes: nothing kept, nothing handed over', async () => {
    const { operation, spend, boostsLeft, effectRows, sent, keyRows } = await setUp(2);
    const key = randomUUID();
    // It expects one boost less than it finds: the check after its statement throws.
    const failing: typeof operation = { ...operation, write: (tx, write, context) => operation.write(tx, { ...write, leftAfter: write.leftAfter - 1 }, context) };
    await expect(spend(key, undefined, failing)).rejects.toThrow('spendBoost: wrote');
    expect(await keyRows(key)).toEqual([]);
    expect(await boostsLeft()).toBe(2);
    expect(await effectRows()).toBe(0);
    expect(sent()).toBe(0);
  });
});
