import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { createTestDatabase, type TestDatabase } from '../../../tests/helpers/test-db';
import { insertFundedCard, insertUser } from '../../../tests/helpers/fixtures';
import { cards, journalEntries, journals, ledgerAccounts } from '../db/schema';
import { SYSTEM_ACCOUNTS, cardAccountCode } from './accounts';
import { debitCard } from './card-accounts';
import { checkLedger } from './check-ledger';
import { postJournal, UnbalancedJournalError } from './post-journal';

describe('ledger', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase({ poolSize: 20 });
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

  it('the database keeps the ledger append-only: no posted entry or journal is changed or removed (decision 153)', async () => {
    const userId = await insertUser(database.db);
    const cardId = await insertFundedCard(database.db, userId, 2_500);
    const otherCardId = await insertFundedCard(database.db, userId, 2_600);
    const entryOf = async (id: string) =>
      (await database.db.select({ id: journalEntries.id, journalId: journalEntries.journalId }).from(journalEntries).innerJoin(ledgerAccounts, eq(ledgerAccounts.id, journalEntries.accountId)).where(eq(ledgerAccounts.code, cardAccountCode(id))))[0]!;
    const entry = await entryOf(cardId);
    const other = { id: (await entryOf(otherCardId)).journalId };
    const entriesBefore = await database.db.select({ n: sql<number>`count(*)::int`, sum: sql<number>`sum(${journalEntries.amountCents})::int` }).from(journalEntries);
    const refusals = [
      // Each of these, had it committed, would have left a journal that no longer sums to zero.
      database.db.delete(journalEntries).where(eq(journalEntries.id, entry.id)),
      database.db.update(journalEntries).set({ journalId: other.id }).where(eq(journalEntries.id, entry.id)),
      database.db.update(journalEntries).set({ amountCents: 1 }).where(eq(journalEntries.id, entry.id)),
      database.db.execute(sql`truncate journal_entries`),
      database.db.update(journals).set({ memo: 'rewritten' }).where(eq(journals.id, entry.journalId)),
      database.db.delete(journals).where(eq(journals.id, other.id)),
    ];
    for (const refused of refusals) {
      // Drizzle wraps the database's error; the refusal is its cause.
      const error: unknown = await refused.then(() => null, (e: unknown) => e);
      expect(String((error as { cause?: unknown } | null)?.cause)).toMatch(/is append-only: (DELETE|UPDATE|TRUNCATE) refused/);
    }
    const entriesAfter = await database.db.select({ n: sql<number>`count(*)::int`, sum: sql<number>`sum(${journalEntries.amountCents})::int` }).from(journalEntries);
    expect(entriesAfter).toEqual(entriesBefore);
    expect((await database.db.select().from(cards).where(eq(cards.id, cardId)))[0]?.remainingAmountCents).toBe(2_500);
    expect((await checkLedger(database.db)).problems).toEqual([]);
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
        const change = await debitCard(tx, { cardId, userId, amountCents: spendCents, validAt: null, statusAtZero: 'closed' });
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

  it('a card whose figures do not add up (original = spent + remaining) is refused by the database', async () => {
    const userId = await insertUser(database.db);
    const cardId = await insertFundedCard(database.db, userId, 1_000);
    await expect(database.db.update(cards).set({ amountSpentCents: 1 }).where(eq(cards.id, cardId))).rejects.toThrow();
    await expect(database.db.update(cards).set({ remainingAmountCents: 999 }).where(eq(cards.id, cardId))).rejects.toThrow();
  });
});

// Migration 0010: cards cashed out or used as a source before every debit counted as spent. Its
// data fix runs here on such cards (the CHECK it then adds is dropped first, to make them), and
// the ledger check, which reports them, is then clean.
describe('migration 0010: spent made whole on older cards', () => {
  it('counts past cash-outs and source uses as spent, leaving purchases and balances as they were', async () => {
    const database = await createTestDatabase();
    try {
      await database.db.execute(sql`alter table cards drop constraint cards_figures_add_up`);
      const userId = await insertUser(database.db);
      const cashedOut = await insertFundedCard(database.db, userId, 10_000);
      const untouched = await insertFundedCard(database.db, userId, 5_000);
      // As the old code left them: $30 of purchases counted, $25 cashed out and $10 moved to another card not.
      await database.db.update(cards).set({ amountSpentCents: 3_000, remainingAmountCents: 3_500 }).where(eq(cards.id, cashedOut));
      const before = await checkLedger(database.db);
      expect(before.problems).toContain(`card ${cashedOut}: original 10000 cents is not spent 3000 + remaining 3500`);

      const migration = readFileSync(new URL('../../../migrations/0010_cards_figures_add_up.sql', import.meta.url), 'utf8');
      for (const statement of migration.split('--> statement-breakpoint')) await database.db.execute(sql.raw(statement));

      const rows = await database.db.select().from(cards).where(eq(cards.userId, userId));
      const byId = new Map(rows.map((r) => [r.id, r]));
      expect(byId.get(cashedOut)).toMatchObject({ originalAmountCents: 10_000, amountSpentCents: 6_500, remainingAmountCents: 3_500 });
      expect(byId.get(untouched)).toMatchObject({ originalAmountCents: 5_000, amountSpentCents: 0, remainingAmountCents: 5_000 });
      // Only figures the ledger check compares changed: the balance (3,500) is not the ledger's here.
      const after = await checkLedger(database.db);
      expect(after.problems.filter((p) => p.includes('is not spent'))).toEqual([]);
    } finally {
      await database.drop();
    }
  });
});
