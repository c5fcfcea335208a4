// Brings a backup (backup.ts) back into an empty DATA_DIR: a new embedded cluster, the schema as
// the backup's own migrations made it, every row in one transaction, the sequences where they
// were, the demo card key. The app's next start applies any newer migration, as after an upgrade.
// A restore that fails removes what it made, so it can be tried again.
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { copyFileSync, createReadStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { writeFileDurably } from '../lib/durable-file';
import { migrationsFolder } from '../db/client';
import { embeddedPaths, embeddedUrl, ensureCluster, startPostmaster, stopPostmaster, EmbeddedPostgresError } from '../db/embedded-postgres';
import { ensureDatabase } from '../db/embedded-server';
import { END_OF_DATA, parseCopyLine, parseHeader, type BackupHeader } from './backup-file';

type Journal = { entries: { idx: number; when: number; tag: string }[] };

/**
 * A copy of this code's migrations folder cut at the backup's last migration, or an error when the
 * backup was written under migrations this code does not have (a newer PayWeave's).
 */
function migrationsUpTo(header: BackupHeader): string {
  const journal = JSON.parse(readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as Journal;
  const kept = journal.entries.slice(0, header.migrations.length);
  header.migrations.forEach((applied, index) => {
    const entry = kept[index];
    const hash = entry && createHash('sha256').update(readFileSync(path.join(migrationsFolder, `${entry.tag}.sql`))).digest('hex');
    if (!entry || entry.when !== applied.createdAt || hash !== applied.hash) {
      throw new EmbeddedPostgresError(
        `This backup was written by a PayWeave whose migration ${index + 1} this one does not have. Restore it with the PayWeave that wrote it (or a newer one).`,
      );
    }
  });
  const folder = mkdtempSync(path.join(tmpdir(), 'payweave-restore-migrations-'));
  mkdirSync(path.join(folder, 'meta'));
  writeFileSync(path.join(folder, 'meta', '_journal.json'), JSON.stringify({ ...journal, entries: kept }));
  for (const entry of kept) copyFileSync(path.join(migrationsFolder, `${entry.tag}.sql`), path.join(folder, `${entry.tag}.sql`));
  return folder;
}

export type RestoreSummary = { tables: number; rows: number; createdAt: string };

export async function restoreBackup(file: string, dataDir: string, say: (message: string) => void): Promise<RestoreSummary> {
  const paths = embeddedPaths(dataDir);
  if (existsSync(paths.clusterDir) || existsSync(path.join(dataDir, 'card-data.key'))) {
    throw new EmbeddedPostgresError(`${path.resolve(dataDir)} already holds a PayWeave database. Restore into an empty DATA_DIR (e.g. DATA_DIR=./data-restored npm run restore FILE).`);
  }
  const lines = createInterface({ input: createReadStream(file).pipe(createGunzip()), crlfDelay: Infinity })[Symbol.asyncIterator]();
  const first = await lines.next();
  const header = parseHeader(first.done ? '' : first.value);
  const migrations = migrationsUpTo(header);

  ensureCluster(dataDir, say);
  const { pid } = await startPostmaster(dataDir, { say });
  let client: pg.Client | undefined;
  try {
    await ensureDatabase(dataDir);
    client = new pg.Client({ connectionString: embeddedUrl(dataDir), application_name: 'payweave restore' });
    await client.connect();
    await migrate(drizzle(client), { migrationsFolder: migrations });

    await client.query('begin');
    // Rows arrive table by table in name order, not in the order of their foreign keys; the data
    // was consistent when it was copied, so the checks of references wait (the superuser's switch).
    await client.query('set local session_replication_role = replica');
    // The migrations seed rows (the ledger's own accounts); the backup has them as they were.
    const seeded = await client.query<{ name: string }>("select quote_ident(tablename) as name from pg_tables where schemaname = 'public'");
    if (seeded.rows.length > 0) await client.query(`truncate ${seeded.rows.map((row) => row.name).join(', ')}`);
    let tables = 0;
    let rows = 0;
    for (let next = await lines.next(); !next.done; next = await lines.next()) {
      const copy = parseCopyLine(next.value);
      if (!copy) {
        if (next.value === '') continue;
        throw new EmbeddedPostgresError(`The backup is damaged: expected a COPY line, found "${next.value.slice(0, 60)}".`);
      }
      const stream = client.query(copyFrom(copy.sql));
      let ended = false;
      for (let row = await lines.next(); !row.done; row = await lines.next()) {
        if (row.value === END_OF_DATA) {
          ended = true;
          break;
        }
        if (!stream.write(`${row.value}\n`)) await once(stream, 'drain');
      }
      if (!ended) throw new EmbeddedPostgresError(`The backup is cut short in table ${copy.table}.`);
      stream.end();
      await once(stream, 'finish');
      tables += 1;
      rows += stream.rowCount ?? 0;
    }
    for (const sequence of header.sequences) {
      if (sequence.lastValue !== null) await client.query('select setval($1::regclass, $2::bigint)', [`public."${sequence.name}"`, sequence.lastValue]);
    }
    await client.query('commit');
    if (header.cardDataKey) writeFileDurably(path.join(dataDir, 'card-data.key'), `${header.cardDataKey}\n`, 0o600);
    await client.end();
    await stopPostmaster(pid);
    return { tables, rows, createdAt: header.createdAt };
  } catch (error) {
    await client?.end().catch(() => {});
    await stopPostmaster(pid);
    for (const made of [paths.clusterDir, paths.passwordFile, paths.logFile]) rmSync(made, { recursive: true, force: true });
    throw error;
  } finally {
    rmSync(migrations, { recursive: true, force: true });
  }
}
