// npm run ledger:check — verifies the ledger of the configured database (DATABASE_URL, or the
// embedded one in DATA_DIR; stop the server first when using the embedded database).
import { loadConfig } from '../config';
import { openDatabase } from '../db/client';
import { checkLedger } from './check-ledger';

const config = loadConfig();
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: 2 });
try {
  const report = await checkLedger(database.db);
  if (report.ok) {
    console.log(`ledger:check ok: ${report.journals} journals balance, ${report.cards} card balances match their ledgers`);
  } else {
    console.error(`ledger:check FAILED (${report.problems.length} problems):`);
    for (const problem of report.problems.slice(0, 100)) console.error(`  ${problem}`);
    process.exitCode = 1;
  }
} finally {
  await database.close();
}
