import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { createTestDatabase, type TestDatabase } from '../../../tests/helpers/test-db';
import { insertUser } from '../../../tests/helpers/fixtures';
import { users } from './schema';
import { namedStatement, placeholderValues } from './named-statement';

const userEmail = namedStatement('test_user_email', (db) =>
  db
    .select({ email: users.email })
    .from(users)
    .where(eq(users.id, sql.placeholder('userId'))),
);
const setEmail = namedStatement('test_set_email', (db) =>
  db
    .update(users)
    .set({ email: sql`${sql.placeholder('email')}` })
    .where(eq(users.id, sql.placeholder('userId')))
    .returning({ email: users.email }),
);

describe('namedStatement', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase({ poolSize: 4 });
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('runs on the pool, with each call its own values', async () => {
    const a = await insertUser(database.db, { email: 'a@example.com' });
    const b = await insertUser(database.db, { email: 'b@example.com' });
    expect(await userEmail(database.db, { userId: a })).toEqual([{ email: 'a@example.com' }]);
    expect(await userEmail(database.db, { userId: b })).toEqual([{ email: 'b@example.com' }]);
  });

  it("inside a transaction it runs on the transaction's connection: it sees the uncommitted write, and a rollback undoes it", async () => {
    const userId = await insertUser(database.db, { email: 'before@example.com' });
    await expect(
      database.db.transaction(async (tx) => {
        expect(await setEmail(tx, { userId, email: 'during@example.com' })).toEqual([{ email: 'during@example.com' }]);
        // Read on the transaction: its own write. (On the pool it would still be the old address.)
        expect(await userEmail(tx, { userId })).toEqual([{ email: 'during@example.com' }]);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await userEmail(database.db, { userId })).toEqual([{ email: 'before@example.com' }]);
  });

  it('a committed transaction keeps the write; the pool and later transactions see it', async () => {
    const userId = await insertUser(database.db, { email: 'old@example.com' });
    await database.db.transaction((tx) => setEmail(tx, { userId, email: 'new@example.com' }));
    expect(await userEmail(database.db, { userId })).toEqual([{ email: 'new@example.com' }]);
    expect(await database.db.transaction((tx) => userEmail(tx, { userId }))).toEqual([{ email: 'new@example.com' }]);
  });
});

describe('placeholderValues: the pieces of one statement cannot share a placeholder by accident', () => {
  it('merges the pieces, and refuses a name two pieces give, naming both', () => {
    expect(placeholderValues({ journal: { jKind: 'cashout' }, debit: { cardId: 'c', amountCents: 5 } })).toEqual({ jKind: 'cashout', cardId: 'c', amountCents: 5 });
    // The debit's amount and, say, a statement's own amount of another meaning would otherwise both bind to one value.
    expect(() => placeholderValues({ debit: { amountCents: 5 }, cashout: { amountCents: 5 } })).toThrow('placeholder amountCents is given by both debit and cashout');
  });
});
