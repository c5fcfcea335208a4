// The completion's write is a named statement, planned once per connection and kept. Its plan must
// reach every row it changes through a unique index, whatever the tables held when it was
// planned: an extra condition on the combine's owner once made the generic plan update the
// combine through the owner's index, reading every combine of theirs (docs/history/performance-log.md, round 7).
import { describe, expect, it } from 'vitest';
import { genericPlan } from '../../../../tests/helpers/generic-plan';
import { createTestDatabase } from '../../../../tests/helpers/test-db';
import { completionWriteSql } from './completion-statement';

describe(`the completion write's plan`, () => {
  it('updates the user, the combine, its sources and the key through their own indexes, and scans no table', async () => {
    const database = await createTestDatabase();
    try {
      const plan = await genericPlan(database.db, completionWriteSql());
      expect(plan).toMatch(/Update on combines[\s\S]*?Index Scan using combines_pkey on combines/);
      expect(plan).toMatch(/Update on users[\s\S]*?Index Scan using users_pkey on users/);
      expect(plan).toMatch(/Update on combine_sources[\s\S]*?combine_sources_(pkey|combine_idx)/);
      expect(plan).toMatch(/Update on idempotency_keys[\s\S]*?idempotency_keys_user_id_key_pk/);
      expect(plan).toContain('ledger_accounts_code_key');
      expect(plan).not.toMatch(/Seq Scan/);
    } finally {
      await database.drop();
    }
  });

});
