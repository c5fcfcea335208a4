// npm run ledger:check — verifies the ledger of the configured database: DATABASE_URL, or the
// embedded one in DATA_DIR, reached as a client of its server (started for the check when no app
// runs it), never by opening its files. Safe while the app runs.
import pg from 'pg';
import { drizzle } from 'drizzle-orm/node-postgres';
import { toolTarget } from '../db/tool-target';
import { withEmbeddedDatabase } from '../db/embedded-server';
import * as schema from '../db/schema';
import { checkLedger } from './check-ledger';

const config = toolTarget();

async function check(url: string): Promise<boolean> {
  const pool = new pg.Pool({ connectionString: url, max: 2, application_name: 'payweave ledger:check' });
  try {
    // One snapshot for every query of the check: a money operation committed halfway through it
    // must not show as a journal without its card's balance. Not inTransaction, which takes no isolation
    // level: a read-only check on the tool's own pool has no deadlock to retry and no change to publish.
    // eslint-disable-next-line no-restricted-syntax -- see above
    const report = await drizzle(pool, { schema }).transaction((tx) => checkLedger(tx), { isolationLevel: 'repeatable read', accessMode: 'read only' });
    if (report.ok) {
      console.log(`ledger:check ok: ${report.journals} journals balance, ${report.cards} card balances match their ledgers`);
      return true;
    }
    console.error(`ledger:check FAILED (${report.problems.length} problems):`);
    for (const problem of report.problems.slice(0, 100)) console.error(`  ${problem}`);
    return false;
  } finally {
    await pool.end();
  }
}

try {
  const ok = config.databaseUrl ? await check(config.databaseUrl) : await withEmbeddedDatabase(config.dataDir, check);
  process.exitCode = ok ? 0 : 1;
} catch (error) {
  console.error(`ledger:check could not run: ${(error as Error).message}`);
  process.exitCode = 2;
}
