// npm run restore FILE — brings a backup (npm run backup) back into an empty DATA_DIR's embedded
// database (docs/operations.md#backups). Stop nothing: the target is a new DATA_DIR.
import { toolTarget } from '../db/tool-target';
import { restoreBackup } from './restore';

const file = process.argv[2];
if (!file) {
  console.error('Usage: npm run restore FILE   (into DATA_DIR, which must hold no database yet)');
  process.exit(2);
}
const config = toolTarget();
try {
  const summary = await restoreBackup(file, config.dataDir, (message) => console.log(message));
  console.log(`restored ${summary.rows} rows in ${summary.tables} tables from the backup of ${summary.createdAt} into ${config.dataDir}. Start the app with this DATA_DIR.`);
} catch (error) {
  console.error(`restore failed: ${(error as Error).message}`);
  process.exitCode = 1;
}
