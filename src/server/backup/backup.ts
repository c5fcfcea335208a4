// A consistent copy of a running database, as a client: every table read in one repeatable-read,
// read-only transaction (one snapshot: a money operation is in the copy whole or not at all), while
// the app keeps serving. Written to a temporary file, forced to disk, then renamed into place.
import { once } from 'node:events';
import { closeSync, createWriteStream, fsyncSync, openSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { createGzip } from 'node:zlib';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { BACKUP_FORMAT, BACKUP_VERSION, END_OF_DATA, copyLine, headerLine, quoteIdentifier, type BackupHeader } from './backup-file';

export type BackupSummary = { tables: number; rows: number; bytes: number };

export async function writeBackup(url: string, file: string, cardDataKey: string | null): Promise<BackupSummary> {
  const client = new pg.Client({ connectionString: url, application_name: 'payweave backup' });
  await client.connect();
  const temporary = `${file}.${process.pid}.partial`;
  try {
    await client.query('begin isolation level repeatable read read only');
    const migrations = await client.query<{ hash: string; created_at: string }>('select hash, created_at::text from drizzle.__drizzle_migrations order by created_at');
    const sequences = await client.query<{ name: string; last_value: string | null }>(
      "select sequencename as name, last_value::text from pg_sequences where schemaname = 'public' order by sequencename",
    );
    const tables = await client.query<{ table_name: string; columns: string[] }>(`
      select c.table_name, array_agg(c.column_name::text order by c.ordinal_position) as columns
      from information_schema.columns c join information_schema.tables t using (table_schema, table_name)
      where c.table_schema = 'public' and t.table_type = 'BASE TABLE' and c.is_generated = 'NEVER'
      group by c.table_name order by c.table_name`);
    const header: BackupHeader = {
      format: BACKUP_FORMAT,
      version: BACKUP_VERSION,
      createdAt: new Date().toISOString(),
      migrations: migrations.rows.map((row) => ({ hash: row.hash, createdAt: Number(row.created_at) })),
      sequences: sequences.rows.map((row) => ({ name: row.name, lastValue: row.last_value })),
      cardDataKey,
    };

    // The file holds every account and the card key: only its owner may read it.
    const output = createWriteStream(temporary, { mode: 0o600 });
    const gzip = createGzip();
    gzip.pipe(output);
    const write = async (chunk: string | Buffer) => {
      if (!gzip.write(chunk)) await once(gzip, 'drain');
    };
    await write(headerLine(header));
    let rows = 0;
    for (const { table_name: table, columns } of tables.rows) {
      await write(`${copyLine(table, columns)}\n`);
      const stream = client.query(copyTo(`COPY ${quoteIdentifier(table)} (${columns.map(quoteIdentifier).join(', ')}) TO STDOUT`));
      for await (const chunk of stream) await write(chunk as Buffer);
      rows += stream.rowCount ?? 0;
      await write(`${END_OF_DATA}\n`);
    }
    gzip.end();
    await once(output, 'close');
    await client.query('commit');

    const fd = openSync(temporary, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, file);
    const dir = openSync(path.dirname(path.resolve(file)), 'r');
    try {
      fsyncSync(dir);
    } finally {
      closeSync(dir);
    }
    return { tables: tables.rows.length, rows, bytes: output.bytesWritten };
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  } finally {
    await client.end().catch(() => {});
  }
}
