// The journal's statement is planned once per connection and kept (a named statement), so its plan
// must not depend on how many accounts there were when it was planned: a plan made while
// ledger_accounts was small once scanned the whole table twice for every money movement, a cost
// that grew with every card issued (docs/history/performance-log.md, round 5). Planned here on a fresh database,
// as generic as PostgreSQL makes it, the worst case.
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { genericPlan } from '../../../tests/helpers/generic-plan';
import type { Tx } from '../db/client';
import { createTestDatabase } from '../../../tests/helpers/test-db';
import { SYSTEM_ACCOUNTS } from './accounts';
import { JOURNAL_RESULT, journalClauses, postJournal, rowsOf } from './post-journal';

describe(`the journal statement's plan`, () => {
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

// The deferred balance check (migration 0001, a PL/pgSQL trigger per entry) sums its journal's
// entries. PL/pgSQL keeps its query's plan for the connection: a plan made while journal_entries
// was small read the whole table at every commit of every money movement once it had grown (seen
// in a CPU profile of the benchmark, round 7 in docs/history/performance-log.md). Reproduced here: one
// connection makes and keeps the plan while the table holds a few rows, another fills the table.
describe(`the journal's balance check`, () => {
  it('reads only its own journal through the index, however small journal_entries was when its plan was made', async () => {
    const database = await createTestDatabase({ poolSize: 1 });
    const other = new pg.Client({ connectionString: database.url });
    const post = (tx: Tx) =>
      postJournal(tx, {
        kind: 'test',
        userId: null,
        referenceId: null,
        entries: [
          { accountCode: SYSTEM_ACCOUNTS.fundingSources, amountCents: -100 },
          { accountCode: SYSTEM_ACCOUNTS.merchants, amountCents: 100 },
        ],
      });
    try {
      await other.connect();
      for (let i = 0; i < 3; i++) await database.db.transaction(post);
      await database.db.execute(sql`analyze journal_entries`);
      // More than 5 checks: PL/pgSQL then settles on the plan it keeps.
      for (let i = 0; i < 8; i++) await database.db.transaction(post);
      // The table grows: 20,000 balanced entries, written without firing triggers.
      await other.query('begin');
      await other.query('set local session_replication_role = replica');
      await other.query(`
        with j as (insert into journals (kind) select 'test' from generate_series(1, 10000) returning id),
          a as (select id from ledger_accounts where code = 'system:merchants')
        insert into journal_entries (journal_id, account_id, amount_cents)
        select j.id, a.id, s.amount from j, a, (values (100), (-100)) as s(amount)`);
      await other.query('commit');
      const scans = await database.db.transaction(async (tx) => {
        // The checks run at each statement's end instead of at commit, so this transaction counts them.
        await tx.execute(sql`set constraints journal_entries_balance immediate`);
        for (let i = 0; i < 5; i++) await post(tx);
        const [counted] = rowsOf<{ seq_tup_read: string | number; idx_tup_fetch: string | number }>(
          await tx.execute(sql`select seq_tup_read, idx_tup_fetch from pg_stat_xact_user_tables where relname = 'journal_entries'`),
        );
        return { read: Number(counted?.seq_tup_read), fetched: Number(counted?.idx_tup_fetch) };
      });
      // Ten checks of two-entry journals: no table scan at all, and a few dozen index fetches
      // (a table scan would read the 20,000 other entries at each check).
      expect(scans.read).toBe(0);
      expect(scans.fetched).toBeLessThan(200);
    } finally {
      await other.end();
      await database.drop();
    }
  });
});
