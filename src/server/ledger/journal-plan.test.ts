// The journal's statement is planned once per connection and kept (a named statement), so its plan
// must not depend on how many accounts there were when it was planned: a plan made while
// ledger_accounts was small once scanned the whole table twice for every money movement, a cost
// that grew with every card issued (docs/performance.md, round 5). Planned here on a fresh database,
// as generic as PostgreSQL makes it, the worst case.
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { genericPlan } from '../../../tests/helpers/generic-plan';
import { createTestDatabase, requireEngine, testEngine } from '../../../tests/helpers/test-db';
import { JOURNAL_RESULT, journalClauses } from './post-journal';

const run = await requireEngine();

describe.skipIf(!run)(`the journal statement's plan (${testEngine()})`, () => {
  it('finds accounts by code and updates card balances through the unique indexes, whatever the size of ledger_accounts when planned', async () => {
    const database = await createTestDatabase();
    try {
      const plan = await genericPlan(database.db, sql`with ${journalClauses()} select ${JOURNAL_RESULT}`);
      expect(plan).toContain('ledger_accounts_code_key');
      expect(plan).toContain('ledger_accounts_pkey');
      expect(plan).not.toMatch(/Seq Scan on ledger_accounts/);
    } finally {
      await database.drop();
    }
  });
});
