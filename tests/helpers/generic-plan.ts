// The plan PostgreSQL keeps for a named statement once it stops planning per call: the generic
// plan, made here on a fresh database (every table empty), the worst case for a plan that must
// stay right as the tables grow.
import { sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Db } from '../../src/server/db/client';
import { rowsOf } from '../../src/server/ledger/post-journal';

export async function genericPlan(db: Db, statement: SQL): Promise<string> {
  const query = new PgDialect().sqlToQuery(statement);
  const nulls = query.params.map(() => 'null').join(', ');
  return db.transaction(async (tx) => {
    await tx.execute(sql`set local plan_cache_mode = force_generic_plan`);
    await tx.execute(sql.raw(`prepare generic_plan_test as ${query.sql}`));
    const explained = await tx.execute(sql.raw(`explain execute generic_plan_test(${nulls})`));
    await tx.execute(sql.raw('deallocate generic_plan_test'));
    return rowsOf<Record<string, string>>(explained)
      .map((row) => Object.values(row)[0])
      .join('\n');
  });
}
