import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { createTestDatabase, type TestDatabase } from '../../../tests/helpers/test-db';
import { insertUser } from '../../../tests/helpers/fixtures';
import type { Tx } from '../db/client';
import { namedSqlStatement, namedStatement } from '../db/named-statement';
import { rowsOf } from '../ledger/post-journal';
import { auditLog, users } from '../db/schema';
import { AppError } from './errors';
import {
  claimClause,
  claimedColumn,
  IDEMPOTENCY_RETENTION_MS,
  requestFingerprint,
  storeClause,
  storedColumn,
  withIdempotency,
  type ClaimInFirstStatement,
} from './idempotency';

describe('idempotency keys', () => {
  let database: TestDatabase;
  let userId: string;
  beforeAll(async () => {
    database = await createTestDatabase({ poolSize: 25 });
    userId = await insertUser(database.db);
  });
  afterAll(async () => {
    await database?.drop();
  });

  // The "work" writes a row so we can count how many times it really ran.
  const work = (marker: string) => async (tx: Parameters<Parameters<TestDatabase['db']['transaction']>[0]>[0]) => {
    await tx.insert(auditLog).values({ event: marker });
    return { status: 201, body: { marker } };
  };
  const countRuns = async (marker: string) =>
    (await database.db.select({ n: sql<number>`count(*)::int` }).from(auditLog).where(eq(auditLog.event, marker)))[0]?.n;

  it('same key and same request returns the stored answer and does the work once', async () => {
    const fingerprint = requestFingerprint({ method: 'POST', route: '/x', body: { a: 1, b: 2 } });
    const first = await withIdempotency(database.db, { userId, key: 'key-same-000001', fingerprint, now: new Date() }, work('m1'));
    const second = await withIdempotency(database.db, { userId, key: 'key-same-000001', fingerprint, now: new Date() }, work('m1'));
    expect(first).toMatchObject({ status: 201, body: { marker: 'm1' }, replayed: false });
    expect(second).toMatchObject({ status: 201, body: { marker: 'm1' }, replayed: true });
    expect(await countRuns('m1')).toBe(1);
  });

  it('fingerprints ignore key order but not values', () => {
    const a = requestFingerprint({ method: 'POST', route: '/x', body: { a: 1, b: 2 } });
    expect(requestFingerprint({ method: 'POST', route: '/x', body: { b: 2, a: 1 } })).toBe(a);
    expect(requestFingerprint({ method: 'POST', route: '/x', body: { a: 1, b: 3 } })).not.toBe(a);
  });

  it('same key with a different request answers 422 and does nothing', async () => {
    const now = new Date();
    await withIdempotency(database.db, { userId, key: 'key-diff-000001', fingerprint: 'f1', now }, work('m2'));
    await expect(withIdempotency(database.db, { userId, key: 'key-diff-000001', fingerprint: 'f2', now }, work('m2b'))).rejects.toMatchObject({
      statusCode: 422,
      code: 'idempotency_mismatch',
    });
    expect(await countRuns('m2b')).toBe(0);
  });

  it('a failed request releases its key so a retry is evaluated again', async () => {
    const now = new Date();
    await expect(
      withIdempotency(database.db, { userId, key: 'key-fail-000001', fingerprint: 'f', now }, async () => {
        throw new AppError(402, 'declined', 'no');
      }),
    ).rejects.toBeInstanceOf(AppError);
    const retry = await withIdempotency(database.db, { userId, key: 'key-fail-000001', fingerprint: 'f', now }, work('m3'));
    expect(retry.replayed).toBe(false);
  });

  it('a key older than 24 hours is forgotten', async () => {
    const then = new Date('2026-01-01T00:00:00Z');
    await withIdempotency(database.db, { userId, key: 'key-old-0000001', fingerprint: 'f', now: then }, work('m4'));
    await database.db.execute(sql`update idempotency_keys set created_at = ${then.toISOString()}::timestamptz where key = 'key-old-0000001'`);
    const later = new Date(then.getTime() + IDEMPOTENCY_RETENTION_MS + 1000);
    const again = await withIdempotency(database.db, { userId, key: 'key-old-0000001', fingerprint: 'f', now: later }, work('m4'));
    expect(again.replayed).toBe(false);
    expect(await countRuns('m4')).toBe(2);
  });

  it('20 concurrent requests with one key: the work runs once and all get its answer', async () => {
    const fingerprint = 'concurrent';
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        withIdempotency(database.db, { userId, key: 'key-conc-000001', fingerprint, now: new Date() }, async (tx) => {
          await new Promise((resolve) => setTimeout(resolve, 20));
          return work('m5')(tx);
        }),
      ),
    );
    expect(results.every((r) => r.status === 201)).toBe(true);
    expect(results.filter((r) => !r.replayed)).toHaveLength(1);
    expect(await countRuns('m5')).toBe(1);
  });

  describe('the claim carried by the work\'s first statement', () => {
    // A first statement in the style of the cash-out's: the claim as a WITH clause, and a read.
    const firstStatement = namedStatement('test_claiming_read', (db) =>
      db
        .with(claimClause(db))
        .select({ id: users.id, claimed: claimedColumn() })
        .from(users)
        .where(eq(users.id, sql.placeholder('userId'))),
    );
    const claimingWork = (marker: string) => async (tx: Tx, claim: ClaimInFirstStatement) => {
      const [row] = await firstStatement(tx, { userId, ...claim.values });
      claim.settle(row?.claimed);
      await tx.insert(auditLog).values({ event: marker });
      return { status: 201, body: { marker } };
    };
    const options = { claimInFirstStatement: true };

    it('does the work once, replays the answer, and refuses the key for another request', async () => {
      const fingerprint = requestFingerprint({ method: 'POST', route: '/y', body: { n: 1 } });
      const input = { userId, key: 'key-first-stmt-1', fingerprint, now: new Date() };
      const first = await withIdempotency(database.db, input, claimingWork('f1'), options);
      const again = await Promise.all(Array.from({ length: 8 }, () => withIdempotency(database.db, input, claimingWork('f1'), options)));
      expect(first).toMatchObject({ status: 201, body: { marker: 'f1' }, replayed: false });
      expect(again.every((r) => r.replayed && r.status === 201)).toBe(true);
      expect(await countRuns('f1')).toBe(1);
      const other = requestFingerprint({ method: 'POST', route: '/y', body: { n: 2 } });
      await expect(withIdempotency(database.db, { ...input, fingerprint: other }, claimingWork('f1'), options)).rejects.toMatchObject({ code: 'idempotency_mismatch' });
      expect(await countRuns('f1')).toBe(1);
    });

    // The work's last statement stores the answer itself (the combine completion does this).
    const storingStatement = namedSqlStatement('test_storing_write', () => sql`with ${storeClause()} select ${storedColumn()}`);
    const storingWork =
      (marker: string, options: { storeInStatement: boolean; answerOtherwise?: boolean }) => async (tx: Tx, claim: ClaimInFirstStatement) => {
        const [row] = await firstStatement(tx, { userId, ...claim.values });
        claim.settle(row?.claimed);
        await tx.insert(auditLog).values({ event: marker });
        const answer = { status: 201, body: { marker } };
        const [stored] = rowsOf<{ stored: number }>(await storingStatement(tx, claim.storeValues(options.storeInStatement ? answer : null)));
        claim.settleStore(stored?.stored);
        return options.answerOtherwise ? { status: 201, body: { marker: 'something else' } } : answer;
      };

    it('an answer stored by the work\'s own statement is the one a retry gets', async () => {
      for (const storeInStatement of [true, false]) {
        const marker = `s-${storeInStatement}`;
        const input = { userId, key: `key-store-in-${storeInStatement}`, fingerprint: marker, now: new Date() };
        const first = await withIdempotency(database.db, input, storingWork(marker, { storeInStatement }), options);
        const again = await withIdempotency(database.db, input, storingWork(marker, { storeInStatement }), options);
        expect(first).toMatchObject({ status: 201, body: { marker }, replayed: false });
        expect(again).toMatchObject({ status: 201, body: { marker }, replayed: true });
        expect(await countRuns(marker)).toBe(1);
      }
    });

    it('work that answers otherwise than it stored is an error, and nothing it did is kept', async () => {
      const input = { userId, key: 'key-store-other', fingerprint: 's-other', now: new Date() };
      await expect(withIdempotency(database.db, input, storingWork('s-other', { storeInStatement: true, answerOtherwise: true }), options)).rejects.toThrow(
        'another answer than the one its statement stored',
      );
      expect(await countRuns('s-other')).toBe(0);
      // The key was released with the rest: the request can be made again.
      const retried = await withIdempotency(database.db, input, storingWork('s-other', { storeInStatement: true }), options);
      expect(retried).toMatchObject({ body: { marker: 's-other' }, replayed: false });
    });

    it('work that never reports its claim is an error, and nothing it did is kept', async () => {
      const input = { userId, key: 'key-first-stmt-2', fingerprint: 'f', now: new Date() };
      await expect(withIdempotency(database.db, input, work('f2'), options)).rejects.toThrow('never settled its claim');
      expect(await countRuns('f2')).toBe(0);
    });
  });
});
