// npm run backup [FILE] — a consistent copy of the database while the app runs (docs/operations.md#backups).
// The embedded database in DATA_DIR is reached as a client of its server (started for the backup
// when no app runs it); with DATABASE_URL, that server's database.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { toolTarget } from '../db/tool-target';
import { withEmbeddedDatabase } from '../db/embedded-server';
import { writeBackup } from './backup';

const config = toolTarget();
const stamp = new Date().toISOString().replace(/[:.]/g, '-');
const file = path.resolve(process.argv[2] ?? path.join('backups', `payweave-${stamp}.backup.gz`));
mkdirSync(path.dirname(file), { recursive: true });
// The demo key lives beside the database; a key given in CARD_DATA_KEY is the operator's to keep.
const keyFile = path.join(config.dataDir, 'card-data.key');
const cardDataKey = !process.env.CARD_DATA_KEY && existsSync(keyFile) ? readFileSync(keyFile, 'utf8').trim() : null;

try {
  const summary = config.databaseUrl
    ? await writeBackup(config.databaseUrl, file, cardDataKey)
    : await withEmbeddedDatabase(config.dataDir, (url) => writeBackup(url, file, cardDataKey));
  console.log(`backup written: ${file} (${summary.tables} tables, ${summary.rows} rows, ${(summary.bytes / 1024).toFixed(0)} KiB). It holds every account${cardDataKey ? ' and the card key' : ''}: keep it private.`);
} catch (error) {
  console.error(`backup failed: ${(error as Error).message}`);
  process.exitCode = 1;
}
