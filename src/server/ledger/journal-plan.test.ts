// The journal's statement is planned once per connection and kept (a named statement), so its plan
// must not depend on how many accounts there were when it was planned: a plan made while
// ledger_accounts was small once scanned the whole table twice for every money movement, a cost
// that grew with every card issued (docs/performance.md, round 5). Planned here on a fresh database,
// as generic as PostgreSQL makes it, the worst case.
import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { createTestDatabase, requireEngine, testEngine } from '../../../tests/helpers/test-db';
import { JOURNAL_RESULT, journalClauses, rowsOf } from './post-journal';

const run = await requireEngine();

describe.skipIf(!run)(`the journal statement's plan (${testEngine()})`, () => {
  it('finds accounts by code and updates card balances through the unique indexes, whatever the size of ledger_accounts when planned', async () => {
    const database = await createTestDatabase();
    try {
      const query = new PgDialect().sqlToQuery(sql`with ${journalClauses()} select ${JOURNAL_RESULT}`);
      const nulls = query.params.map(() => 'null').join(', ');
      const plan = await database.db.transaction(async (tx) => {
        await tx.execute(sql`set local plan_cache_mode = force_generic_plan`);
        await tx.execute(sql.raw(`prepare journal_plan_test as ${query.sql}`));
        const explained = await tx.execute(sql.raw(`explain execute journal_plan_test(${nulls})`));
        await tx.execute(sql.raw('deallocate journal_plan_test'));
        return rowsOf<Record<string, string>>(explained)
          .map((row) => Object.values(row)[0])
          .join('\n');
      });
      expect(plan).toContain('ledger_accounts_code_key');
      expect(plan).toContain('ledger_accounts_pkey');
      expect(plan).not.toMatch(/Seq Scan on ledger_accounts/);
    } finally {
      await database.drop();
    }
  });
});
