import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { createTestDatabase, requireEngine, testEngine, type TestDatabase } from '../../../tests/helpers/test-db';
import { insertFundedCard, insertUser } from '../../../tests/helpers/fixtures';
import { cards, journalEntries, journals, ledgerAccounts } from '../db/schema';
import { SYSTEM_ACCOUNTS, cardAccountCode } from './accounts';
import { debitCard } from './card-accounts';
import { checkLedger } from './check-ledger';
import { postJournal, UnbalancedJournalError } from './post-journal';

const run = await requireEngine();

describe.skipIf(!run)(`ledger (${testEngine()})`, () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(testEngine(), { poolSize: 20 });
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('a funded card has a balanced journal and matching cached balances', async () => {
    const userId = await insertUser(database.db);
    const cardId = await insertFundedCard(database.db, userId, 25_000);
    const [account] = await database.db.select().from(ledgerAccounts).where(eq(ledgerAccounts.code, cardAccountCode(cardId)));
    expect(account?.balanceCents).toBe(25_000);
    expect((await checkLedger(database.db)).ok).toBe(true);
  });

  it('refuses a journal that does not sum to zero before touching the database', async () => {
    const before = await database.db.select({ n: sql<number>`count(*)::int` }).from(journals);
    await expect(
      database.db.transaction((tx) =>
        postJournal(tx, {
          kind: 'test',
          userId: null,
          referenceId: null,
          entries: [
            { accountCode: SYSTEM_ACCOUNTS.fundingSources, amountCents: -100 },
            { accountCode: SYSTEM_ACCOUNTS.productFeeRevenue, amountCents: 99 },
          ],
        }),
      ),
    ).rejects.toBeInstanceOf(UnbalancedJournalError);
    const after = await database.db.select({ n: sql<number>`count(*)::int` }).from(journals);
    expect(after[0]?.n).toBe(before[0]?.n);
  });

  it('the database itself refuses an unbalanced journal at commit', async () => {
    await expect(
      database.db.transaction(async (tx) => {
        const [journal] = await tx.insert(journals).values({ kind: 'test' }).returning({ id: journals.id });
        const [account] = await tx.select().from(ledgerAccounts).where(eq(ledgerAccounts.code, SYSTEM_ACCOUNTS.merchants));
        await tx.insert(journalEntries).values({ journalId: journal!.id, accountId: account!.id, amountCents: 500 });
      }),
    ).rejects.toThrow();
    expect((await checkLedger(database.db)).ok).toBe(true);
  });

  it('refuses a posting to an unknown account instead of dropping the entry', async () => {
    await expect(
      database.db.transaction((tx) =>
        postJournal(tx, {
          kind: 'test',
          userId: null,
          referenceId: null,
          entries: [
            { accountCode: SYSTEM_ACCOUNTS.fundingSources, amountCents: -100 },
            { accountCode: 'card:00000000-0000-0000-0000-000000000000', amountCents: 100 },
          ],
        }),
      ),
    ).rejects.toBeInstanceOf(UnbalancedJournalError);
  });

  it('the database refuses a negative card balance even when code forgets to check', async () => {
    const userId = await insertUser(database.db);
    const cardId = await insertFundedCard(database.db, userId, 1_000);
    await expect(database.db.update(cards).set({ remainingAmountCents: -1 }).where(eq(cards.id, cardId))).rejects.toThrow();
    await expect(
      database.db.update(ledgerAccounts).set({ balanceCents: -1 }).where(eq(ledgerAccounts.code, cardAccountCode(cardId))),
    ).rejects.toThrow();
  });

  it('50 concurrent spends that would overdraw one card: balance never below zero, ledger consistent', async () => {
    const userId = await insertUser(database.db);
    const startCents = 10_000;
    const spendCents = 700; // 14 fit (9,800), the other 36 must be refused
    const cardId = await insertFundedCard(database.db, userId, startCents);
    const attempts = Array.from({ length: 50 }, () =>
      database.db.transaction(async (tx) => {
        const change = await debitCard(tx, { cardId, userId, amountCents: spendCents, countsAsSpent: true, statusAtZero: 'closed' });
        if (!change) return false;
        await postJournal(tx, {
          kind: 'purchase',
          userId,
          referenceId: cardId,
          entries: [
            { accountCode: cardAccountCode(cardId), amountCents: -spendCents },
            { accountCode: SYSTEM_ACCOUNTS.merchants, amountCents: spendCents },
          ],
        });
        return true;
      }),
    );
    const results = await Promise.all(attempts);
    expect(results.filter(Boolean)).toHaveLength(Math.floor(startCents / spendCents));
    const [card] = await database.db.select().from(cards).where(eq(cards.id, cardId));
    expect(card?.remainingAmountCents).toBe(startCents - 14 * spendCents);
    expect(card?.amountSpentCents).toBe(14 * spendCents);
    const report = await checkLedger(database.db);
    expect(report.problems).toEqual([]);
  });
});
