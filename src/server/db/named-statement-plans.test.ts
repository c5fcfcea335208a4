// Every named statement is planned once per connection, and PostgreSQL then keeps a generic plan
// made with whatever the tables held at that moment: on a new database, next to nothing. A plan
// that scans a table because it was small then costs more with every row the table gains (round 5
// found the journal's statement scanning ledger_accounts, round 7 the balance check scanning
// journal_entries: docs/history/performance-log.md). Here every named statement of the app is planned the way
// PostgreSQL keeps it, on an empty database, and none may read a table by scanning it. Nor may
// one count a clause's rows with an aggregate (use rowsWritten).
import { PgDialect } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { genericPlan } from '../../../tests/helpers/generic-plan';
import { createTestDatabase, type TestDatabase } from '../../../tests/helpers/test-db';
import '../app';
import { namedStatementTexts } from './named-statement';

// Tables that never grow: a scan of their few rows is the cheapest read there is.
const FIXED_SIZE_TABLES = new Set(['system_promos']);

describe(`named statements' kept plans`, () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('read every table they touch through an index, whatever the table held when planned', async () => {
    const statements = [...namedStatementTexts()];
    // The hot paths: the app's named statements are all loaded with it.
    expect(statements.map(([name]) => name)).toEqual(expect.arrayContaining(['post_journal', 'complete_combine_write', 'cashout_write', 'load_for_completion']));
    const scans: string[] = [];
    for (const [name, text] of statements) {
      const plan = await genericPlan(database.db, text(database.db));
      for (const [, table] of plan.matchAll(/Seq Scan on (\w+)/g)) {
        if (table && !FIXED_SIZE_TABLES.has(table)) scans.push(`${name}: ${table}`);
      }
    }
    expect(scans).toEqual([]);
  });

  it('count the rows their clauses wrote without an aggregate, which PostgreSQL would set up on every call (decision 152)', () => {
    const counted: string[] = [];
    for (const [name, text] of namedStatementTexts()) {
      const query = new PgDialect().sqlToQuery(text(database.db));
      // A whole clause counted: `(select count(*) from clause)`. A count of a table's rows matching a condition is another matter.
      if (/\(select count\(\*\)(::int)? from [a-z_]+\)/i.test(query.sql)) counted.push(name);
    }
    expect(counted).toEqual([]);
  });
});
