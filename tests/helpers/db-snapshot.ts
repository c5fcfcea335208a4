// A fingerprint of every table: row count and an md5 of its rows in a stable order. Two equal
// snapshots mean nothing was written (up to the exclusions the caller names, which must each be
// justified where they are used).
import { sql } from 'drizzle-orm';
import type { Db } from '../../src/server/db/client';

export type TableFingerprint = { rows: number; md5: string | null };
export type DbSnapshot = Record<string, TableFingerprint>;

export type SnapshotExclusions = {
  /** Tables left out entirely. */
  tables?: readonly string[];
  /** Columns left out of a table's hash, e.g. { sessions: ['last_seen_at'] }. */
  columns?: Readonly<Record<string, readonly string[]>>;
  /** A SQL condition (on alias `t`) selecting the rows of a table that are left out. */
  rowsWhere?: Readonly<Record<string, string>>;
};

export async function queryRows<T extends Record<string, unknown>>(db: Db, text: string): Promise<T[]> {
  const result = (await db.execute(sql.raw(text))) as unknown as { rows: T[] };
  return result.rows;
}

/** The application's tables (schema public), from information_schema, in name order. */
export async function listTables(db: Db): Promise<string[]> {
  const rows = await queryRows<{ table_name: string }>(
    db,
    "select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name",
  );
  return rows.map((row) => row.table_name);
}

const identifier = (name: string) => `"${name.replaceAll('"', '""')}"`;
const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;

export async function snapshotDatabase(db: Db, exclusions: SnapshotExclusions = {}): Promise<DbSnapshot> {
  const snapshot: DbSnapshot = {};
  for (const table of await listTables(db)) {
    if (exclusions.tables?.includes(table)) continue;
    const dropped = exclusions.columns?.[table] ?? [];
    const row = dropped.length > 0 ? `to_jsonb(t) - array[${dropped.map(literal).join(',')}]::text[]` : 'to_jsonb(t)';
    const where = exclusions.rowsWhere?.[table] ? `where not (${exclusions.rowsWhere[table]})` : '';
    const [result] = await queryRows<{ rows: number | string; md5: string | null }>(
      db,
      `select count(*)::int as rows, md5(string_agg(r::text, ',' order by r::text)) as md5 from (select ${row} as r from ${identifier(table)} t ${where}) s`,
    );
    snapshot[table] = { rows: Number(result?.rows ?? 0), md5: result?.md5 ?? null };
  }
  return snapshot;
}
